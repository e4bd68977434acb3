import TestSupport
import Testing

/// Issue 26: over `serve`, the listener's long poll must not acknowledge notifications that
/// `listen --once` then never prints (see `ListenScenario`).
@Suite("cloudsync serve: subscribe listen --once with notifications arriving together (end to end)")
struct ServeListenOnceTests {
    @Test(arguments: [2, 10])
    func onceLeavesTheOthersWaiting(count: Int) throws {
        let fixture = try ServeFixture()
        let (laptopHome, laptop) = fixture.client("listen-laptop-\(count)")
        let (deskHome, desk) = fixture.client("listen-desk-\(count)")
        _ = laptopHome
        let problems = ListenScenario.problems(count: count, writer: laptop, listener: desk, folder: deskHome) {
            // A poll is logged once answered: the scenario's `listen --timeout 0` made one, the
            // listener's first read a second; after it, the listener waits in a long poll.
            Self.waitUntil(seconds: 20) { Self.polls(fixture.log) >= 2 }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(fixture.stop() == 0)
    }

    /// How many `notifications/poll` requests a request log holds.
    static func polls(_ log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains("notifications/poll") }.count
    }

    static func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        for _ in 0..<Int(seconds * 50) {
            if condition() { return true }
            sleepSeconds(0.02)
        }
        return false
    }
}
