import CloudSyncCLI
import CloudSyncCore
import TestSupport
import Testing

/// Issue 17, item 13: data from the cloud and words from the command line never reach the
/// terminal raw in text output. Every command that prints names or values is run through the
/// built binary with a value that retitles the window and clears the screen, a carriage return,
/// a newline that would forge a line, a tab, a C1 CSI and a bidi override.
@Suite("terminal escapes in text output (end to end)")
struct TerminalEscapesEndToEndTests {
    let home = TemporaryDirectory("escapes-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    static let title = "\u{1B}]0;PWNED\u{07}\u{1B}[2J"
    static let value = title + "a\r\nFORGED\t\u{9B}\u{202E}"
    /// How `value` is shown.
    static let shown = #"\e]0;PWNED\a\e[2Ja\r\nFORGED\t\u009b\u202e"#

    /// No ESC, BEL, CR, other C0, DEL, C1 or bidi control on stdout or stderr, and no line
    /// forged by a value (`FORGED` only ever follows an escaped `\n`).
    func expectClean(_ result: ProcessResult, allowTabs: Bool = false, _ what: String,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let raw = text.unicodeScalars.filter {
                $0 != "\n" && !(allowTabs && $0 == "\t") && TerminalEscaping.needsEscaping($0)
            }
            #expect(raw.isEmpty, "\(what): raw \(raw.map { String($0.value, radix: 16) }) on \(stream): \(text)",
                    sourceLocation: sourceLocation)
            let forged = text.split(separator: "\n").filter { $0.hasPrefix("FORGED") }
            #expect(forged.isEmpty, "\(what): a value forged a line on \(stream)", sourceLocation: sourceLocation)
        }
    }

    func expectShown(_ result: ProcessResult, _ what: String, in stream: String = "stdout",
                     sourceLocation: SourceLocation = #_sourceLocation) {
        expectClean(result, what, sourceLocation: sourceLocation)
        let text = stream == "stdout" ? result.stdout : result.stderr
        #expect(text.contains(Self.shown), "\(what): \(text)", sourceLocation: sourceLocation)
    }

    @Test func recordQueryAndGetOfAnotherAccountsPublicRecord() {
        let saved = cli.run(["record", "save", "Post", "p1", "--database", "public", "--field", "title=" + Self.value])
        #expect(saved.status == 0, "\(saved.stderr)")
        let bob = ["CLOUDSYNC_ACCOUNT": "bob"]
        let query = cli.run(["record", "query", "Post", "--database", "public"], env: bob)
        #expect(query.status == 0)
        expectShown(query, "record query")
        let get = cli.run(["record", "get", "p1", "--database", "public"], env: bob)
        #expect(get.status == 0)
        expectShown(get, "record get")
        // JSON is left as the JSON writer escapes it: the exact value comes back.
        let json = try? cli.run(["record", "get", "p1", "--database", "public", "--json"], env: bob).firstRecord()
        #expect(json?["fields"]?["title"]?["value"]?.stringValue == Self.value)
    }

    @Test func fetchChangesOnAnotherDevice() {
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "body=" + Self.value],
                        device: "laptop").status == 0)
        let fetched = cli.run(["fetch-changes"], device: "phone")
        #expect(fetched.status == 0, "\(fetched.stderr)")
        expectShown(fetched, "fetch-changes")
        expectClean(cli.run(["zone", "list"], device: "phone"), "zone list")
    }

    @Test func storeGetQueryConflictsAndSync() {
        #expect(cli.run(["store", "sync", "on"], device: "setup").status == 0)
        let put = cli.run(["store", "put", "Note", "n1", "--field", "title=" + Self.value, "--field", "body=b"],
                          device: "laptop")
        #expect(put.status == 0, "\(put.stderr)")
        expectShown(cli.run(["store", "get", "Note", "n1"], device: "laptop"), "store get")
        expectShown(cli.run(["store", "query", "Note"], device: "laptop"), "store query")
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "title=" + Self.title + "2"], device: "laptop").status == 0)
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "body=" + Self.value], device: "phone").status == 0)
        expectClean(cli.run(["store", "sync"], device: "laptop"), "store sync")
        expectClean(cli.run(["store", "sync"], device: "phone"), "store sync with a conflict")
        expectClean(cli.run(["store", "conflicts"], device: "phone"), "store conflicts")
        expectClean(cli.run(["store", "history"], device: "phone"), "store history")
        expectClean(cli.run(["store", "sync"], device: "laptop"), "store sync after the conflict")
        expectShown(cli.run(["store", "get", "Note", "n1"], device: "laptop"), "store get after sync")
    }

    @Test func keyValueListAndGet() throws {
        #expect(cli.run(["kv", "set", "motd", Self.value]).status == 0)
        expectShown(cli.run(["kv", "list"]), "kv list")
        let get = cli.run(["kv", "get", "motd"])
        expectShown(get, "kv get")
        #expect(get.stdout == Self.shown + "\n", "one value, one line")
        #expect(try cli.run(["kv", "get", "motd", "--json"]).json()["value"]?.stringValue == Self.value)
    }

    @Test func otpShowListAndCodes() {
        let added = cli.run(["otp", "add", "tok", "--secret-file", "-", "--issuer", Self.value,
                             "--account-name", Self.value, "--note", Self.value],
                            stdin: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\n")
        #expect(added.status == 0, "\(added.stderr)")
        expectShown(cli.run(["otp", "show", "tok"]), "otp show")
        expectShown(cli.run(["otp", "list"]), "otp list")
        expectClean(cli.run(["otp", "code"]), "otp code")
        // Tab-separated by design: the only tab on a line is the separator.
        let quiet = cli.run(["-q", "otp", "code"])
        expectClean(quiet, allowTabs: true, "otp code -q")
        for line in quiet.stdout.split(separator: "\n") { #expect(line.filter { $0 == "\t" }.count == 1) }
        let ambiguous = cli.run(["otp", "show", "t\u{1B}[2J\nFORGED"])
        #expect(ambiguous.status == 3)
        expectClean(ambiguous, "otp show of an unknown token")
        #expect(ambiguous.stderr.contains(#"t\e[2J\nFORGED"#))
    }

    @Test func subscriptionsCreateAndList() {
        let created = cli.run(["subscribe", "create", "--query", "Note", "--where", "title == %@", "--arg", Self.value,
                               "--alert", Self.value, "--id", "s1"])
        #expect(created.status == 0, "\(created.stderr)")
        expectShown(created, "subscribe create")
        expectShown(cli.run(["subscribe", "list"]), "subscribe list")
        // Notifications carry the alert and desired keys of another device's record.
        #expect(cli.run(["subscribe", "create", "--query", "Post", "--alert", Self.value, "--desired-keys", "title",
                         "--id", "s2"]).status == 0)
        _ = cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone")
        #expect(cli.run(["record", "save", "Post", "p1", "--field", "title=" + Self.value], device: "laptop").status == 0)
        let listened = cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone")
        #expect(listened.status == 0, "\(listened.stderr)")
        expectShown(listened, "subscribe listen")
        #expect(listened.stdout.split(separator: "\n").count == 1)
    }

    @Test func errorsThatEchoInput() {
        #expect(cli.run(["record", "save", "Note", "n0", "--field", "a=1"]).status == 0)
        let cases: [([String], Int32)] = [
            (["record", "get", Self.value], 3),
            (["fetch-changes", "--zone", Self.value], 65),
            (["store", "config", "merge-policy", Self.value], 64),
            (["zone", "list", "--" + Self.value], 64),
            (["record", "save", "Note", "n1", "--policy", Self.value], 64),
            ([Self.value], 64),
            (["help", "zone", Self.value], 64),
        ]
        for (arguments, status) in cases {
            let result = cli.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            expectShown(result, "\(arguments)", in: "stderr")
        }
        let predicate = cli.run(["record", "query", "Note", "--where", Self.value])
        #expect(predicate.status == 65)
        expectClean(predicate, "a bad predicate")
        #expect(predicate.stderr.contains(#"unexpected character '\e'"#))
    }

    @Test func replScriptOnStandardInput() {
        #expect(cli.run(["kv", "set", "motd", Self.value]).status == 0)
        let script = [
            "kv get motd",
            "kv list",
            "record get \u{1B}]0;PWNED\u{07}",
            "use account \u{1B}[2J",
            "use \u{1B}[2J",
            "zone create \u{9B}31m",
            "\"unterminated \u{1B}[2J",
        ].joined(separator: "\n") + "\n"
        let result = cli.run(["repl", "--echo"], stdin: script)
        expectClean(result, "repl script")
        #expect(result.stdout.contains(Self.shown))
        #expect(result.stderr.contains(#"+ record get \e]0;PWNED\a"#))
        #expect(result.stderr.contains(#"\e[2J"#) && result.stderr.contains(#"\u009b31m"#))
    }
}
