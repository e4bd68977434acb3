import CloudSyncService
import CloudSyncCore
import CloudSyncWebClient
import Synchronization
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

    /// HAProxy's client and server timeouts made short (`CLOUDSYNC_CLUSTER_TIMEOUT=4`, instead of
    /// 200 s) so that a long poll (HTTPCloud's, asking the protocol's most, 60 s, as `sync
    /// --watch` does) waits through the balancer longer than them. Nothing cuts it with a 504
    /// (the cluster's nodes answer a poll before the balancer's timeout, `serve
    /// --max-poll-wait`, and the client polls again); a change made after twice the timeout
    /// arrives, and the balancer sent no 5xx.
    @Test func aPollWaitingLongerThanTheBalancersTimeoutsIsNotCutAndLosesNothing() throws {
        let cluster = try ClusterFixture(nodes: 2, environment: ["CLOUDSYNC_CLUSTER_TIMEOUT": "4"])
        defer { cluster.stop() }
        let container = "iCloud.com.example.Cluster"
        let token = try cluster.token("alice")
        let http = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: cluster.balancerURL, defaultContainer: container,
                                                                   token: { _ in token }),
                             session: CurlSession())
        let user = try http.account(named: "alice")
        let phone = DatabaseRequest(container: container, scope: .private, userRecordName: user.userRecordName, deviceID: "phone")
        let laptop = DatabaseRequest(container: container, scope: .private, userRecordName: user.userRecordName, deviceID: "laptop")
        _ = try http.saveZones([ZoneSpec(name: "Notes")], in: laptop)
        _ = try http.saveSubscriptions([Subscription(subscriptionID: "db", kind: .database)], in: phone)
        let device = DeviceAddress(container: container, userRecordName: user.userRecordName, deviceID: "phone")
        try http.registerDevice(device)

        // The phone waits, poll after poll, until a notification comes (or 90 s pass).
        let received = Mutex<[CloudNotification]>([])
        let listening = startThread {
            guard let waiter = try? http.makeNotificationWaiter(for: device) else { return }
            let deadline = BackgroundProcess.now() + 90
            while BackgroundProcess.now() < deadline {
                guard waiter.wait(timeout: 60) else { continue }
                let got = (try? http.takeNotifications(for: device, limit: 10)) ?? []
                if !got.isEmpty {
                    received.withLock { $0 += got }
                    return
                }
            }
        }
        // Twice the balancer's timeouts, then a change.
        sleepSeconds(10)
        #expect(received.withLock { $0.isEmpty }, "nothing to hear before the save")
        let id = RecordID(recordName: "late", zoneID: laptop.zoneID("Notes"))
        let saved = try http.modifyRecords(ModifyRequest(saves: [Record(recordID: id, recordType: "Note", fields: ["title": .string("late")])]),
                                           in: laptop)
        #expect(saved.errors.isEmpty, "\(saved.errors)")
        pthread_join(listening, nil)
        #expect(received.withLock { $0.count } == 1, "the change made after the long wait arrived: \(received.withLock { $0 })")
        #expect(cluster.balancerServerErrors() == 0, "no poll was cut by the balancer (5xx replies: \(String(describing: cluster.balancerServerErrors())))")
        let polls = (1...2).map { cluster.requestLog($0) }.joined().split(separator: "\n").filter { $0.contains("notifications/poll") }
        #expect(polls.count >= 3, "polls answered before the balancer's timeout and made again: \(polls)")
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
