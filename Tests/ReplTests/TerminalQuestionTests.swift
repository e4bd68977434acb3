import Glibc
import TestSupport
import Testing

/// Questions a command asks on a real terminal (tmux), issue 30 items 8 and 9: a declined
/// confirmation keeps things and exits 0 without `error:`; the account's first data key asks
/// for its new passphrase twice.
@Suite(.serialized) struct TerminalQuestionTests {
    /// Runs `cloudsync <arguments>` in tmux as alice on `device`.
    static func start(_ home: TemporaryDirectory, _ arguments: [String], device: String = "laptop",
                      extra: [String: String] = [:]) -> TmuxSession? {
        let command = TmuxSession.cloudsyncCommand(arguments, environment: ReplTerminalTests.environment(
            home: home.path, device: device, extra: extra))
        return TmuxSession(command, folder: home.path)
    }

    @Test func answeringNoAtAConfirmationKeepsAndExitsZero() throws {
        let home = TemporaryDirectory("confirm-no")
        let runner = BinaryRunner(home: home.path)
        #expect(runner.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        guard let session = Self.start(home, ["zone", "delete", "Notes"]) else { return }
        session.waitFor("[y/N]")
        session.type("n")
        session.press("Enter")
        session.waitFor("[exit 0]")
        #expect(session.screen.contains("kept zone Notes (not deleted)"), "\(session.screen)")
        #expect(!session.screen.contains("error:"), "\(session.screen)")
        #expect(runner.run(["zone", "list"], device: "laptop").stdout.contains("Notes"))

        #expect(runner.run(["otp", "add", "bank", "--generate"], device: "laptop").status == 0)
        guard let otp = Self.start(home, ["otp", "remove", "bank"]) else { return }
        otp.waitFor("[y/N]")
        otp.type("n")
        otp.press("Enter")
        otp.waitFor("[exit 0]")
        #expect(otp.screen.contains("kept 'bank' (nothing removed)") && !otp.screen.contains("error:"), "\(otp.screen)")
    }

    @Test func theFirstDataKeyAsksForItsPassphraseTwice() throws {
        let home = TemporaryDirectory("unlock-twice")
        // Two different answers: nothing is made, bad input (65).
        guard let typo = Self.start(home, ["keys", "unlock"]) else { return }
        typo.waitFor("New sync passphrase (every device")
        typo.type("correct horse")
        typo.press("Enter")
        typo.waitFor("New sync passphrase again: ")
        typo.type("correct hrose")
        typo.press("Enter")
        typo.waitFor("[exit 65]")
        #expect(typo.screen.contains("the two passphrases differ; no data key was made"), "\(typo.screen)")
        let status = BinaryRunner(home: home.path).run(["keys", "status", "--json"], device: "laptop")
        #expect(try status.json()["accountHasKey"] == .bool(false), "\(status.stdout)")

        // The same answer twice: the key is made, and another device unlocks with it.
        guard let good = Self.start(home, ["keys", "unlock"]) else { return }
        good.waitFor("New sync passphrase (every device")
        good.type("correct horse")
        good.press("Enter")
        good.waitFor("New sync passphrase again: ")
        good.type("correct horse")
        good.press("Enter")
        good.waitFor("[exit 0]")
        #expect(good.screen.contains("data key unlocked on this device"), "\(good.screen)")
        let phone = BinaryRunner(home: home.path).run(["keys", "unlock"], device: "phone",
                                                     env: ["CLOUDSYNC_PASSPHRASE": "correct horse"])
        #expect(phone.status == 0, "\(phone.stderr)")

        // A device that unwraps an existing key asks once.
        guard let desk = Self.start(home, ["keys", "unlock"], device: "desk") else { return }
        desk.waitFor("Sync passphrase: ")
        desk.type("correct horse")
        desk.press("Enter")
        desk.waitFor("[exit 0]")
        #expect(!desk.screen.contains("again"), "\(desk.screen)")
    }
}
