import Glibc
import TestSupport
import Testing

/// The REPL driven through a real pseudo-terminal (tmux), as a person would use it.
@Suite(.serialized) struct ReplTerminalTests {
    /// The environment of a REPL as `alice` on `device`, everything inside `home`.
    static func environment(home: String, device: String = "laptop", extra: [String: String] = [:]) -> [String: String] {
        var environment = BinaryRunner(home: home).environment
        environment["CLOUDSYNC_DEVICE"] = device
        environment["TERM"] = "screen"
        environment["INPUTRC"] = "/dev/null"
        environment.merge(extra) { $1 }
        return environment
    }

    /// Starts `cloudsync <arguments>` in tmux and waits for the first prompt.
    static func start(_ home: TemporaryDirectory, _ arguments: [String] = ["repl"], device: String = "laptop",
                      extra: [String: String] = [:], prompt: String? = nil) -> TmuxSession? {
        let command = TmuxSession.cloudsyncCommand(arguments, environment: environment(home: home.path, device: device,
                                                                                       extra: extra))
        guard let session = TmuxSession(command, folder: home.path) else { return nil }
        session.waitFor(prompt ?? "alice@\(device)> ")
        return session
    }

    @Test func tabCompletesCommandsSubcommandsAndLiveZoneNames() throws {
        let home = TemporaryDirectory("repl-complete")
        let runner = BinaryRunner(home: home.path)
        #expect(runner.run(["zone", "create", "Notebook", "Archive"], device: "laptop").status == 0)
        guard let repl = Self.start(home) else { return }
        let prompt = "alice@laptop> "

        // A command and a subcommand: "zo<Tab>" -> "zone ", "li<Tab>" -> "list ".
        repl.type("zo")
        repl.press("Tab")
        repl.type("li")
        repl.press("Tab", "Enter")
        repl.waitFor("Notebook")
        #expect(repl.screen.contains("alice@laptop> zone list"))
        #expect(repl.screen.contains("ZONE"))

        // Two Tabs list the choices.
        repl.waitForIdle(prompt)
        repl.type("record ")
        repl.press("Tab", "Tab")
        repl.waitFor("query")
        #expect(repl.screen.contains("delete") && repl.screen.contains("save"))
        repl.press("C-u")

        // A live value from the cloud: the zone created above.
        repl.waitForIdle(prompt)
        repl.type("zone delete Noteb")
        repl.press("Tab")
        repl.type("--yes")
        repl.press("Enter")
        repl.waitFor("deleted zone Notebook")
        #expect(repl.screen.contains("alice@laptop> zone delete Notebook --yes"))

        // --option=value completes the value.
        repl.waitForIdle(prompt)
        repl.type("fetch-changes --zone=Arc")
        repl.press("Tab")
        repl.press("Enter")
        repl.waitFor("alice@laptop> fetch-changes --zone=Archive")
        repl.quit(prompt)
    }

    @Test func historyIsWrittenAndReloadedAcrossSessions() throws {
        let home = TemporaryDirectory("repl-history")
        let historyFile = home.path + "/state/cloudsync/history"
        let prompt = "alice@laptop> "
        do {
            guard let repl = Self.start(home) else { return }
            repl.type("zone list")
            repl.press("Enter")
            repl.waitFor("_defaultZone")
            repl.waitForIdle(prompt)
            repl.type(" zone list --json")  // a leading blank keeps it out of the history
            repl.press("Enter")
            repl.waitFor("\"zones\"")
            repl.waitForIdle(prompt)
            repl.type("help zone")
            repl.press("Enter")
            repl.waitFor("SUBCOMMANDS")
            repl.quit(prompt)
        }
        let text = TemporaryDirectory.readBytes(historyFile).map { String(decoding: $0, as: UTF8.self) }
        #expect(text == "zone list\nhelp zone\n")
        var info = stat()
        #expect(stat(historyFile, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(stat(home.path + "/state/cloudsync", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)

        // A second session starts with that history: Up, Up recalls 'zone list'.
        guard let repl = Self.start(home) else { return }
        repl.press("Up")
        repl.waitFor("alice@laptop> help zone")
        repl.press("Up")
        repl.waitFor("alice@laptop> zone list")
        repl.press("Enter")
        repl.waitFor("_defaultZone")
        repl.quit(prompt)
        let after = TemporaryDirectory.readBytes(historyFile).map { String(decoding: $0, as: UTF8.self) }
        #expect(after == "zone list\nhelp zone\nzone list\n")
    }

    @Test func useDeviceSwitchesTheContextAndThePrompt() throws {
        let home = TemporaryDirectory("repl-use")
        let runner = BinaryRunner(home: home.path)
        #expect(runner.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(runner.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=Hello"],
                           device: "laptop").status == 0)
        guard let repl = Self.start(home) else { return }

        repl.type("fetch-changes")
        repl.press("Enter")
        repl.waitFor("changed  Notes/n1")
        repl.waitForIdle("alice@laptop> ")
        repl.type("fetch-changes")
        repl.press("Enter")
        repl.waitFor("Already up to date.")

        // Another device has fetched nothing yet: it gets the record again.
        repl.waitForIdle("alice@laptop> ")
        repl.type("use device phone")
        repl.press("Enter")
        repl.waitForIdle("alice@phone> ")
        repl.type("fetch-changes")
        repl.press("Enter")
        repl.waitFor("changed  Notes/n1", count: 2)
        var info = stat()
        #expect(stat(home.path + "/devices/alice/phone.sqlite", &info) == 0)

        // A flag on one line still wins for that line only.
        repl.waitForIdle("alice@phone> ")
        repl.type("--device laptop fetch-changes")
        repl.press("Enter")
        repl.waitFor("Already up to date.", count: 2)

        // The container shows in the prompt when it is not the default one.
        repl.waitForIdle("alice@phone> ")
        repl.type("use container iCloud.com.example.Other")
        repl.press("Enter")
        repl.waitForIdle("alice@phone:iCloud.com.example.Other> ")
        repl.type("use account bob")
        repl.press("Enter")
        repl.waitForIdle("bob@phone:iCloud.com.example.Other> ")
        repl.type("use device 'no good'")
        repl.press("Enter")
        repl.waitFor("invalid device name 'no good'")
        repl.quit("bob@phone:iCloud.com.example.Other> ")
    }

    @Test func errorsPrintAndTheSessionGoesOn() throws {
        let home = TemporaryDirectory("repl-errors")
        guard let repl = Self.start(home) else { return }
        let prompt = "alice@laptop> "

        repl.type("record get nope --zone Nowhere")
        repl.press("Enter")
        repl.waitFor("zone 'Nowhere' does not exist")

        repl.waitForIdle(prompt)
        repl.type("zoen list")
        repl.press("Enter")
        repl.waitFor("'zoen' is not a cloudsync command")
        repl.waitFor("Did you mean 'zone'?")

        repl.waitForIdle(prompt)
        // Issue 15: an open quote continues onto the next line (the line break is in the value).
        repl.type("record save Note n1 --field 'title=Hello")
        repl.press("Enter")
        repl.type("world'")
        repl.press("Enter")
        repl.waitFor("saved n1 (Note)")

        // Ctrl-C clears the line: what was typed before it is gone.
        repl.waitForIdle(prompt)
        repl.type("zone crea")
        repl.waitFor("alice@laptop> zone crea")
        repl.press("C-c")
        repl.waitForIdle(prompt)
        repl.type("zone list")
        repl.press("Enter")
        repl.waitFor("_defaultZone")
        #expect(!repl.screen.contains("zone creazone list"))

        repl.waitForIdle(prompt)
        repl.type("help")
        repl.press("Enter")
        repl.waitFor("use device <name>")
        repl.quit(prompt)
    }

    @Test func ctrlCStopsARunningCommandButNotTheSession() throws {
        let home = TemporaryDirectory("repl-interrupt")
        home.makeDirectory("plugins")
        home.write("plugins/cloudsync-sleeper", "#!/bin/sh\necho sleeping\nsleep 30\necho woke up\n", mode: 0o755)
        guard let repl = Self.start(home, extra: ["CLOUDSYNC_EXEC_PATH": home.file("plugins")]) else { return }
        let prompt = "alice@laptop> "
        repl.type("sle")
        repl.press("Tab")
        repl.press("Enter")
        repl.waitFor("sleeping")
        repl.press("C-c")
        repl.waitForIdle(prompt, timeout: 10)
        repl.type("zone list")
        repl.press("Enter")
        repl.waitFor("_defaultZone")
        #expect(!repl.screen.contains("woke up"))
        #expect(repl.screen.contains("alice@laptop> sleeper"), "Tab completed the plugin's name")
        repl.quit(prompt)
    }

    @Test func bareCloudsyncOnATerminalOpensTheReplAndExitLeaves() throws {
        let home = TemporaryDirectory("repl-bare")
        guard let repl = Self.start(home, [], extra: ["CLOUDSYNC_HISTORY": "/dev/null"]) else { return }
        #expect(repl.screen.contains("'help' lists the commands"))
        repl.type("exit")
        repl.press("Enter")
        repl.waitFor("[exit 0]")
        var info = stat()
        #expect(stat(home.path + "/state/cloudsync/history", &info) != 0, "/dev/null turns history off")
    }

    @Test func anOversizeOrOddHistoryFileIsSkippedWithAWarning() throws {
        let home = TemporaryDirectory("repl-bad-history")
        let big = String(repeating: "zone list\n", count: 120_000)
        home.write("big-history", big)
        guard let repl = Self.start(home, extra: ["CLOUDSYNC_HISTORY": home.file("big-history")]) else { return }
        #expect(repl.screen.contains("cloudsync: warning: history file \(home.file("big-history")) is 1200000 bytes"))
        repl.type("zone list")
        repl.press("Enter")
        repl.waitFor("_defaultZone")
        repl.quit("alice@laptop> ")
        #expect(TemporaryDirectory.readBytes(home.file("big-history"))?.count == big.utf8.count, "left alone")

        home.makeDirectory("a-folder")
        guard let second = Self.start(home, extra: ["CLOUDSYNC_HISTORY": home.file("a-folder")]) else { return }
        #expect(second.screen.contains("is not a regular file; history is off for this session"))
        second.quit("alice@laptop> ")
    }
}
