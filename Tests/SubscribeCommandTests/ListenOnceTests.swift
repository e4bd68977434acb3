import TestSupport
import Testing

/// Issue 26: `listen --once` prints one of several notifications that arrive together and
/// leaves the others waiting, on the embedded cloud (see `ListenScenario`).
@Suite("cloudsync subscribe listen --once: notifications arriving together (embedded cloud)")
struct ListenOnceTests {
    @Test(arguments: [2, 10])
    func onceLeavesTheOthersWaiting(count: Int) throws {
        let home = TemporaryDirectory("listen-once-\(count)")
        let cli = BinaryRunner(home: home.path)
        let problems = ListenScenario.problems(count: count, writer: cli, listener: cli, folder: home) {
            // Without a terminal the listener says nothing before it waits: give its first read time.
            sleepSeconds(1)
            return true
        }
        #expect(problems.isEmpty, "\(problems)")
    }
}
