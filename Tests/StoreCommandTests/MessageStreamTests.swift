import CloudSyncCore
import TestSupport
import Testing

/// The house convention (docs/ARCHITECTURE.md, "The CLI"), as git does it: a command's result,
/// including the one-line confirmation of what it did, is on stdout; progress, notes, hints,
/// warnings and errors are on stderr.
@Suite("Results on stdout, notes on stderr (end to end)")
struct MessageStreamTests {
    let home = TemporaryDirectory("message-streams-e2e")
    var cli: BinaryRunner {
        BinaryRunner(home: home.path, extra: ["CLOUDSYNC_PASSPHRASE": "correct horse battery staple",
                                              "CLOUDSYNC_NEW_PASSPHRASE": "tr0ub4dor"])
    }

    /// Runs a command that must succeed; returns it.
    func ok(_ arguments: [String], stdin: String = "") -> ProcessResult {
        let result = cli.run(arguments, stdin: stdin)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    @Test func syncOnAndOffBothConfirmOnStdout() {
        for family in ["store", "otp"] {
            let on = ok([family, "sync", "on"])
            #expect(on.stdout.contains("sync is on for account alice") || on.stdout.contains("sync was already on for account alice"),
                    "\(family): \(on.stdout)")
            #expect(!on.stderr.contains("sync is on") && !on.stderr.contains("already on"), "\(family): \(on.stderr)")
            let off = ok([family, "sync", "off"])
            #expect(off.stdout.contains("sync is off for account alice"), "\(family): \(off.stdout)")
            #expect(off.stderr.isEmpty, "\(family): \(off.stderr)")
        }
        // --json: one document, no text.
        let json = ok(["store", "sync", "on", "--json"])
        #expect(json.stdout.hasPrefix("{") && !json.stdout.contains("sync is on"))
    }

    @Test func kvKeysAndStoreConfigConfirmOnStdout() {
        let set = ok(["kv", "set", "theme", "dark"])
        #expect(set.stdout == "theme set (pending until 'kv sync')\n")
        #expect(set.stderr.isEmpty)
        // Issue 15: with --json the result is JSON, never nothing or text.
        #expect(ok(["kv", "set", "theme", "dark", "--json"]).stdout == #"{"key":"theme","type":"string","value":"dark","pending":true}"# + "\n")
        let unlock = ok(["keys", "unlock"])
        #expect(unlock.stdout == "data key unlocked on this device\n" && unlock.stderr.isEmpty)
        let change = ok(["keys", "passphrase", "change"])
        #expect(change.stdout == "passphrase changed; the data key was re-wrapped\n" && change.stderr.isEmpty)
        let lock = ok(["keys", "lock"])
        #expect(lock.stdout == "data key removed from this device\n" && lock.stderr.isEmpty)
        let config = ok(["store", "config", "merge-policy", "server"])
        #expect(config.stdout == "merge-policy = server\n" && config.stderr.isEmpty)
        // --quiet silences notes, not results.
        #expect(ok(["--quiet", "kv", "set", "mode", "x"]).stdout == "mode set (pending until 'kv sync')\n")
    }

    @Test func otpExportToAFileSaysWhatItWroteOnStdoutAndCautionsOnStderr() {
        _ = ok(["otp", "add", "vpn"], stdin: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\n")
        let path = home.file("tokens.txt")
        let export = ok(["otp", "export", "-o", path])
        #expect(export.stdout == "wrote 1 tokens to \(path)\n")
        #expect(export.stderr.contains("holds the secrets: delete it when done"))
        #expect(!ok(["--quiet", "otp", "export", "-o", path]).stderr.contains("holds the secrets"))
    }
}
