import CloudSyncCore

/// `subscribe listen --once` while several notifications arrive together (issue 26): one save
/// of a Note fires a database subscription and `count - 1` query subscriptions of the device
/// "desk" at once. The listener, already waiting, must print one and leave the others waiting:
/// `count - 1` more `listen --once` each print a different one, and then none is left.
///
/// Shared by the embedded-cloud suite (SubscribeCommandTests) and the `serve` suite.
public enum ListenScenario {
    /// Runs the scenario; the problems found (empty when it passed). `writer` saves on the
    /// device "laptop", `listener` listens on "desk" (both of one account); `folder` holds the
    /// background listener's output; `listening` returns once that listener has read its queue
    /// once and is waiting (for instance: its first poll is in the server's request log).
    public static func problems(count: Int, writer: BinaryRunner, listener: BinaryRunner, folder: TemporaryDirectory,
                                listening: () -> Bool) -> [String] {
        var problems: [String] = []
        func check(_ result: ProcessResult, _ what: String) {
            if result.status != 0 { problems.append("\(what): exit \(result.status): \(result.stderr)") }
        }
        check(writer.run(["zone", "create", "Notes"], device: "laptop"), "zone create")
        check(listener.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "desk"), "database subscription")
        for index in 1..<count {
            check(listener.run(["subscribe", "create", "--query", "Note", "--id", "q\(index)"], device: "desk"), "query subscription \(index)")
        }
        let waiting = listener.run(["subscribe", "listen", "--timeout", "0"], device: "desk")
        if waiting.status != 75 { problems.append("nothing should wait before the save: \(waiting.stdout)") }

        let out = folder.file("listen-once.out"), err = folder.file("listen-once.err")
        let first = BackgroundProcess(listener, ["--json", "subscribe", "listen", "--once", "--timeout", "30"], device: "desk",
                                      stdout: out, stderr: err)
        if !listening() { problems.append("the listener did not start: " + BackgroundProcess.read(err)) }
        check(writer.run(["record", "save", "Note", "n1", "--zone", "Notes"], device: "laptop"), "record save")
        if first.wait(seconds: 30) != 0 { problems.append("the waiting listener failed: " + BackgroundProcess.read(err)) }
        var seen: [String] = []
        func collect(_ stdout: String, _ what: String) {
            let lines = stdout.split(separator: "\n")
            if lines.count != 1 { problems.append("\(what) printed \(lines.count) notifications, not 1: \(stdout)") }
            for line in lines {
                guard let id = (try? JSONValue.parse(String(line)))?["notificationID"]?.stringValue else {
                    problems.append("\(what) printed no notificationID: \(line)")
                    continue
                }
                seen.append(id)
            }
        }
        collect(BackgroundProcess.read(out), "the waiting listener")
        for index in 1..<count {
            let next = listener.run(["--json", "subscribe", "listen", "--once", "--timeout", "0"], device: "desk")
            check(next, "listen --once number \(index + 1) (the notification was acknowledged but never printed)")
            collect(next.stdout, "listen --once number \(index + 1)")
        }
        if Set(seen).count != count { problems.append("expected \(count) different notifications, got \(seen)") }
        let after = listener.run(["subscribe", "listen", "--timeout", "0"], device: "desk")
        if after.status != 75 { problems.append("all were read, yet listen found more: \(after.stdout)") }
        return problems
    }
}
