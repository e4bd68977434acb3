import CloudSyncCore
import TestSupport
import Testing

/// `otp add` of a secret too large for the cloud is refused when it is added, not left
/// pending forever (issue 17, item 2). A 10 MB secret does not fit in an argument, so it comes
/// from `--secret-file` (base32 text, and an otpauth:// URI).
@Suite("otp add: the cloud's record limit (end to end)")
struct OTPSizeLimitTests {
    let home = TemporaryDirectory("otp-size")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    func expectNothingStored() throws {
        #expect(try cli.tokenNames("laptop").isEmpty)
        #expect(try cli.exec(["store", "status", "--json"]).json()["records"] == .int(0))
    }

    @Test func aTenMegabyteSecretIsRefusedAndNothingIsStored() throws {
        // 10 MB of secret is 16 M base32 characters ("A" is 5 zero bits).
        let file = home.write("secret.txt", String(repeating: "A", count: 16_000_000) + "\n")
        let result = cli.exec(["otp", "add", "huge", "--secret-file", file])
        #expect(result.status == 65)
        #expect(result.stderr.contains("the limit is 1048576 (1 MB)"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        try expectNothingStored()
    }

    /// The secret is encrypted before it syncs: 800 KB of secret is over 1 MB as ciphertext.
    @Test func aSecretOverTheLimitOnceEncryptedIsRefusedFromAURI() throws {
        let uri = "otpauth://totp/big?secret=" + String(repeating: "A", count: 1_280_000)
        let result = cli.exec(["otp", "add", "--secret-file", home.write("uri.txt", uri + "\n")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("bytes in the cloud"))
        try expectNothingStored()
        // A normal secret still goes in, and syncs.
        #expect(cli.exec(["otp", "add", "rfc"], stdin: rfcSecret).status == 0)
        #expect(cli.exec(["otp", "sync", "on"], env: ["CLOUDSYNC_PASSPHRASE": "pass"]).status == 0)
        let sync = cli.exec(["otp", "sync"], env: ["CLOUDSYNC_PASSPHRASE": "pass"])
        #expect(sync.status == 0, "\(sync.stderr)")
    }
}
