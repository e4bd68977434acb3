import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scripts/cluster: a long poll survives its node's restart (end to end)", .serialized)
struct ClusterLongPollTests {
    /// `subscribe listen --retry` waits through the balancer; each node in turn is killed
    /// (SIGKILL), so one kill cuts the long poll. A save made right then, while the listener
    /// reconnects, still arrives; so does one made after the node is back; nothing twice.
    @Test func aListenerReconnectsThroughTheBalancerAndMissesNothing() throws {
        let cluster = try ClusterFixture(nodes: 2)
        defer { cluster.stop() }
        let home = TemporaryDirectory("cluster-listen")
        let alice = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_CLOUD": cluster.balancerURL,
                                                          "CLOUDSYNC_TOKEN": try cluster.token("alice"),
                                                          "CLOUDSYNC_SYNC_BACKOFF": "0.2,1"])
        #expect(alice.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        let subscribed = alice.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "phone")
        #expect(subscribed.status == 0, "\(subscribed.stderr)")
        let listener = BackgroundProcess(alice, ["subscribe", "listen", "--retry", "--json"], device: "phone",
                                         stdout: home.file("listen.out"), stderr: home.file("listen.err"))
        defer {
            kill(listener.pid, SIGTERM)
            _ = listener.wait(seconds: 20)
        }
        #expect(alice.run(["record", "save", "Note", "n0", "--zone", "Notes", "--field", "title=first"], device: "laptop").status == 0)
        #expect(Self.waitForLines(1, in: home.file("listen.out")), "first notification: \(BackgroundProcess.read(home.file("listen.err")))")

        // The poll waits on one of the two nodes: kill each in turn, so one kill cuts it.
        for node in 1...2 {
            let killed = cluster.run(["kill-node", String(node)])
            #expect(killed.status == 0, "\(killed.stderr)")
            let during = alice.run(["record", "save", "Note", "k\(node)", "--zone", "Notes", "--field", "title=node \(node) down"],
                                   device: "laptop")
            #expect(during.status == 0, "a save through the balancer while node \(node) is down: \(during.stderr)")
            #expect(Self.waitForLines(2 * node, in: home.file("listen.out")),
                    "the change made while node \(node) was down arrived: \(BackgroundProcess.read(home.file("listen.err")))")
            let restarted = cluster.run(["start-node", String(node)])
            #expect(restarted.status == 0, "\(restarted.stderr)")
            let after = alice.run(["record", "save", "Note", "r\(node)", "--zone", "Notes", "--field", "title=node \(node) back"],
                                  device: "laptop")
            #expect(after.status == 0, "\(after.stderr)")
            #expect(Self.waitForLines(2 * node + 1, in: home.file("listen.out")),
                    "the change made after node \(node) came back arrived: \(BackgroundProcess.read(home.file("listen.err")))")
        }
        let lines = BackgroundProcess.read(home.file("listen.out")).split(separator: "\n")
        #expect(lines.count == 5, "each change once: \(lines)")
        #expect(ClusterFixture.isRunning(listener.pid), "the listener still listens")
        #expect(cluster.requestLog(1).contains("notifications/poll") || cluster.requestLog(2).contains("notifications/poll"))
        let status = cluster.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(!status.stdout.contains("stopped"), "every part runs again: \(status.stdout)")
    }

    /// Waits (up to 60 s) until `path` holds `count` lines.
    static func waitForLines(_ count: Int, in path: String) -> Bool {
        let deadline = BackgroundProcess.now() + 60
        while BackgroundProcess.now() < deadline {
            if BackgroundProcess.read(path).split(separator: "\n").count >= count { return true }
            sleepSeconds(0.05)
        }
        return false
    }
}
