@testable import CloudSyncPostgres
import Glibc
import Testing

@Suite("PostgresConnection: LISTEN/NOTIFY")
struct PostgresNotificationTests {
    @Test func aListenerIsWokenByAnotherConnection() throws {
        let listener = try TestServer.connect()
        let sender = try TestServer.connect()
        let channel = TestServer.uniqueName("Changes \"quoted\"")
        try listener.listen(channel)
        try sender.notify(channel, payload: "zone 7 ✓")
        let received = try listener.waitForNotification(timeout: .seconds(60))
        #expect(received == PostgresNotification(channel: channel, payload: "zone 7 ✓", senderPID: sender.backendPID))
        // Taken once.
        #expect(try listener.waitForNotification(timeout: .zero) == nil)
    }

    @Test func aNotificationInATransactionArrivesAtCommit() throws {
        let listener = try TestServer.connect()
        let sender = try TestServer.connect()
        let channel = TestServer.uniqueName("tx")
        try listener.listen(channel)
        try sender.transaction { (sender: PostgresConnection) throws(PostgresError) in
            try sender.notify(channel, payload: "one")
            #expect(try listener.waitForNotification(timeout: .milliseconds(50)) == nil)
        }
        #expect(try listener.waitForNotification(timeout: .seconds(60))?.payload == "one")
    }

    @Test func aListenerWaitingInPollIsWokenByAnotherProcess() throws {
        let listener = try TestServer.connect()
        let channel = TestServer.uniqueName("process")
        try listener.listen(channel)
        // psql, a separate process, notifies after the listener has gone to sleep in poll.
        let url = try TestServer.urlText()
        let child = try spawn("/bin/sh", ["-c", "sleep 0.3; exec psql -X -q -v ON_ERROR_STOP=1 \"$URL\" -c \"NOTIFY $CHANNEL, 'from psql'\""],
                              environment: ["URL": url, "CHANNEL": channel, "PATH": "/usr/bin:/bin"])
        let received = try listener.waitForNotification(timeout: .seconds(60))
        #expect(waitForExit(child) == 0)
        #expect(received?.channel == channel)
        #expect(received?.payload == "from psql")
        #expect(received.map { $0.senderPID != listener.backendPID } == true)
        // One wake-up for the notification (maybe one more for other traffic), no spinning.
        #expect(listener.notificationWakeups <= 3)
    }

    @Test func waitingWithoutNotificationsSleepsInsteadOfSpinning() throws {
        let listener = try TestServer.connect()
        try listener.listen(TestServer.uniqueName("quiet"))
        #expect(try listener.waitForNotification(timeout: .milliseconds(300)) == nil)
        // A spinning loop would wake thousands of times; poll wakes once, at the deadline.
        #expect(listener.notificationWakeups <= 2)
    }

    @Test func unlistenStopsDelivery() throws {
        let listener = try TestServer.connect()
        let channel = TestServer.uniqueName("gone")
        try listener.listen(channel)
        try listener.unlisten(channel)
        try listener.notify(channel, payload: "unheard")
        try listener.listen(channel + "_other")
        try listener.notify(channel + "_other", payload: "heard")
        #expect(try listener.waitForNotification(timeout: .seconds(60))?.payload == "heard")
    }

    @Test func badChannelNamesAreRefused() throws {
        let db = try TestServer.connect()
        let tooLong = String(repeating: "c", count: 64)
        #expect(throws: PostgresError.invalidArgument("a channel name must be 1 to 63 bytes without NUL")) {
            try db.listen(tooLong)
        }
        #expect(throws: PostgresError.self) { try db.listen("") }
        #expect(throws: PostgresError.self) { try db.notify("a\u{0}b") }
        // 63 bytes is the limit, and kept exactly.
        let longest = String(repeating: "é", count: 31) + "x"
        try db.listen(longest)
        try db.notify(longest, payload: "edge")
        #expect(try db.waitForNotification(timeout: .seconds(60))?.channel == longest)
    }

    /// Starts a program with its output on /dev/null.
    func spawn(_ path: String, _ arguments: [String], environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1] {
            posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        try #require(rc == 0, "posix_spawn \(path): \(rc)")
        return pid
    }

    func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
