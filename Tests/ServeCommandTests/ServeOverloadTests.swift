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
}
