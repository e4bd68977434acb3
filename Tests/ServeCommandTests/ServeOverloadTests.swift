import TestSupport
import Testing

@Suite("cloudsync serve: a busy server (503 with Retry-After)")
struct ServeOverloadTests {
    /// A server whose every data call answers 503 with Retry-After (`CLOUDSYNC_FAULTS` on serve):
    /// the client's sync (`fetch-changes`, through RetryingCloud) retries a bounded number of times, then exits 75 (try later), not 69.
    @Test func aServerThatStaysBusyEndsInTryLater() throws {
        let calls = TemporaryDirectory("serve-busy")
        let fixture = try ServeFixture(environment: ["CLOUDSYNC_FAULTS": "serviceUnavailable:1000",
                                                     "CLOUDSYNC_CALL_LOG": calls.file("calls")])
        let (home, client) = fixture.client("busy")
        _ = home
        let result = client.run(["fetch-changes"], device: "c")
        #expect(result.status == 75, "\(result.stderr)")
        #expect(result.stderr.contains("gave up after"), "\(result.stderr)")
        let tries = BackgroundProcess.read(calls.file("calls")).split(separator: "\n").filter { $0 != "account" }.count
        #expect(tries > 1 && tries <= 10, "retried, a bounded number of times: \(tries)")
        #expect(fixture.log.contains(" alice 503 "), "\(fixture.log)")
        #expect(fixture.stop() == 0)
    }

    /// Two 503s, then the server recovers: the client's retries carry the call through.
    @Test func aServerBusyForAMomentIsRetriedThrough() throws {
        let fixture = try ServeFixture(environment: ["CLOUDSYNC_FAULTS": "serviceUnavailable:2"])
        let (home, client) = fixture.client("brief")
        _ = home
        let result = client.run(["fetch-changes"], device: "c")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(fixture.log.contains(" alice 503 "), "\(fixture.log)")
        #expect(fixture.log.contains(" alice 200 "), "\(fixture.log)")
        #expect(fixture.stop() == 0)
    }

    /// `serve --max-requests 1` over a slow cloud: one request works, two wait, and the rest of a
    /// burst are answered at once 503 TRY_AGAIN_LATER with Retry-After (before, the gate
    /// was as large as the connection limit, so it never refused).
    @Test func aBurstPastTheRequestSlotsIsAnswered503WithRetryAfter() throws {
        let fixture = try ServeFixture(serveArguments: ["--max-connections", "32", "--max-requests", "1"],
                                       environment: ["CLOUDSYNC_FAULT_DELAY_MS": "3000"])
        let out = TemporaryDirectory("serve-burst")
        let url = fixture.url + "/database/1/iCloud.com.example.App/development/private/zones/list"
        let script = (0..<8).map { index in
            "curl -s --max-time 60 -X POST -H 'Authorization: Bearer \(fixture.token)' -d '{}' -D \(out.file("h\(index)")) "
                + "-o \(out.file("b\(index)")) -w '%{http_code}\\n' '\(url)' > \(out.file("s\(index)")) &"
        }.joined(separator: "\n") + "\nwait\n"
        let burst = ProcessSpawner.run("/bin/sh", ["-c", script], environment: ["PATH": "/usr/bin:/bin"])
        #expect(burst.status == 0, "\(burst.stderr)")
        var statuses: [String] = []
        for index in 0..<8 {
            let status = trimmed(BackgroundProcess.read(out.file("s\(index)")))
            statuses.append(status)
            if status == "503" {
                #expect(BackgroundProcess.read(out.file("h\(index)")).lowercased().contains("retry-after: 1"))
                #expect(BackgroundProcess.read(out.file("b\(index)")).contains("\"serverErrorCode\":\"TRY_AGAIN_LATER\""))
            }
        }
        #expect(statuses.allSatisfy { $0 == "200" || $0 == "503" }, "\(statuses)")
        #expect(statuses.contains("200"), "\(statuses)")
        #expect(statuses.filter { $0 == "503" }.count >= 1, "\(statuses)")
        #expect(fixture.stop() == 0)
    }

    /// Bad limits are usage errors.
    @Test func maxRequestsMustBeBelowTheConnections() throws {
        let home = TemporaryDirectory("serve-limits")
        let runner = BinaryRunner(home: home.path)
        for bad in [["--max-connections", "8", "--max-requests", "8"], ["--max-requests", "0"], ["--max-requests", "x"]] {
            let result = runner.run(["serve", "--listen", "127.0.0.1:0"] + bad)
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(result.stderr.contains("--max-requests"), "\(result.stderr)")
        }
    }

    /// A single call (`record save`) retries a busy server too, honouring Retry-After, and
    /// exits 75 only after a bounded number of tries (before, the first 503 was exit 75).
    @Test func aSingleCallRetriesABusyServerThenExits75() throws {
        let brief = try ServeFixture(environment: ["CLOUDSYNC_FAULTS": "serviceUnavailable@modifyRecords:2"])
        let (home, client) = brief.client("single")
        _ = home
        let saved = client.run(["record", "save", "Note", "n1", "--field", "title=hi"], device: "c")
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(brief.log.contains("records/modify alice 503"), "\(brief.log)")
        #expect(brief.log.contains("records/modify alice 200"), "\(brief.log)")
        #expect(brief.stop() == 0)

        let calls = TemporaryDirectory("serve-single-busy")
        let busy = try ServeFixture(environment: ["CLOUDSYNC_FAULTS": "serviceUnavailable@modifyRecords:1000",
                                                  "CLOUDSYNC_CALL_LOG": calls.file("calls")])
        let (home2, client2) = busy.client("single-busy")
        _ = home2
        let refused = client2.run(["record", "save", "Note", "n1", "--field", "title=hi"], device: "c")
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("gave up after 4 tries"), "\(refused.stderr)")
        let tries = BackgroundProcess.read(calls.file("calls")).split(separator: "\n").filter { $0 == "modifyRecords" }.count
        #expect(tries == 4, "\(tries)")
        #expect(busy.stop() == 0)
    }
}
