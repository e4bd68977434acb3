import CloudSyncCore
import TestSupport
import Testing

/// Issue 25, item 10: requests at the edges of `cloudsync serve`, over real HTTP on 127.0.0.1.
/// A path with a NUL or a dot segment (raw or percent-encoded) and a body with a repeated key are
/// refused with 400 BAD_REQUEST instead of being read as something else.
@Suite("cloudsync serve: paths and bodies at the edges (end to end)")
struct ServeRequestEdgeTests {
    static let base = "/database/1/iCloud.com.example.App/development/private/"

    /// curl with the path sent exactly as given; the status line's code and the body.
    func post(_ fixture: ServeFixture, _ path: String, body: String = "{}") -> (status: Int, body: String) {
        let reply = ProcessSpawner.run("/usr/bin/curl", [
            "-sS", "--max-time", "30", "--path-as-is", "-w", "\n%{http_code}", "-H", "Authorization: Bearer " + fixture.token,
            "-H", "Content-Type: application/json", "--data-binary", body, fixture.url + path,
        ], environment: ["PATH": "/usr/bin:/bin"])
        let lines = reply.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n"))
    }

    @Test func nulAndDotSegmentsInThePathAreRefused() throws {
        let fixture = try ServeFixture()
        #expect(post(fixture, Self.base + "users/current").status == 200)
        for path in ["users/current%00/../../x", "users/current%00", "users/current/%2e%2e/current", "users/./current",
                     "../private/users/current", "users/current/..", "users/%2E/current", "zones/list/%2e"] {
            let (status, body) = post(fixture, Self.base + path)
            #expect(status == 400, "\(path): \(status) \(body)")
            #expect(body.contains("BAD_REQUEST"), "\(path): \(body)")
        }
        #expect(fixture.stop() == 0)
    }

    @Test func aRepeatedKeyInABodyIsRefused() throws {
        let fixture = try ServeFixture()
        let (_, alice) = fixture.client("alice")
        #expect(alice.run(["zone", "create", "Notes"], device: "a").status == 0)
        let query = #"{"query":{"recordType":"Note"},"zoneID":{"zoneName":"Notes"}}"#
        #expect(post(fixture, Self.base + "records/query", body: query).status == 200)
        let repeated = #"{"query":{"recordType":"Note"},"zoneID":{"zoneName":"Notes"},"zoneID":{"zoneName":"_defaultZone"}}"#
        let (status, body) = post(fixture, Self.base + "records/query", body: repeated)
        #expect(status == 400, "\(body)")
        let reply = try JSONValue.parse(body)
        #expect(reply["serverErrorCode"] == .string("BAD_REQUEST"), "\(body)")
        #expect(reply["reason"]?.stringValue?.contains(#"byte offset 61: duplicate key "zoneID""#) == true, "\(body)")
        // Nested objects too.
        let nested = #"{"query":{"recordType":"Note","recordType":"Ghost"},"zoneID":{"zoneName":"Notes"}}"#
        #expect(post(fixture, Self.base + "records/query", body: nested).status == 400)
        #expect(fixture.stop() == 0)
    }
}
