import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("otp add, code, verify, list, show, rename, remove (end to end)")
struct OTPCommandTests {
    let home = TemporaryDirectory("otp-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    @Test func addFromStdinFileAndURIThenCodes() throws {
        let added = cli.exec(["otp", "add", "rfc", "--issuer", "RFC", "--account-name", "test", "--digits", "8"], device: "laptop",
                            stdin: "gezd gnbv gy3t qojq gezd gnbv gy3t qojq\n")
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.out == "added 'rfc' (totp SHA1 8 digits 30 s)")
        let file = home.write("uri.txt", "otpauth://totp/ACME%20Co:john@example.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA256&period=60\n")
        #expect(cli.exec(["otp", "add", "--secret-file", file], device: "laptop").status == 0)
        #expect(cli.exec(["otp", "add", "Steam", "--type", "steam"], device: "laptop", stdin: "63BEDWCQZKTQWPESARIERL5DTTQFCJTK").status == 0)
        #expect(try cli.tokenNames("laptop") == ["ACME Co:john@example.com", "rfc", "Steam"])
        // RFC 6238 Appendix B and KeePassXC's Steam vectors through the binary.
        #expect(cli.code("rfc", at: 59, device: "laptop") == "94287082")
        #expect(cli.code("rfc", at: 20_000_000_000, device: "laptop") == "65353130")
        #expect(cli.code("steam", at: 1_511_200_518, device: "laptop") == "FR8RV")
        let next = cli.exec(["otp", "code", "RFC:test", "--at", "1970-01-01T00:00:59Z", "--next", "2"], device: "laptop")
        #expect(next.out == "94287082  (1 s left)\n37359152  (in 1 s)\n26969429  (in 31 s)")
        let json = try cli.exec(["otp", "code", "acme", "--at", "@1234567890", "--json"], device: "laptop").json()
        #expect(json["name"]?.stringValue == "ACME Co:john@example.com")
        #expect(json["secondsLeft"] == .int(30) && json["validUntil"] == .int(1_234_567_920_000))
        #expect(json["code"]?.stringValue?.count == 6)
        // Without a query: every time-based code.
        let all = try cli.exec(["otp", "code", "--at", "@59", "--json"], device: "laptop").json()["codes"]?.arrayValue ?? []
        #expect(all.compactMap { $0["name"]?.stringValue } == ["ACME Co:john@example.com", "rfc", "Steam"])
        #expect(all[1]["code"]?.stringValue == "94287082")
        let table = cli.exec(["otp", "code", "--at", "@59"], device: "laptop")
        #expect(table.stdout.hasPrefix("NAME") && table.stdout.contains("94287082"))
    }

    @Test func lookupsAmbiguityAndNotFound() throws {
        for (name, issuer, account) in [("work", "Google", "alice@corp.com"), ("home", "Google", "alice@gmail.com")] {
            #expect(cli.exec(["otp", "add", name, "--issuer", issuer, "--account-name", account], stdin: rfcSecret + "\n").status
                    == (name == "work" ? 0 : 4), "the same secret twice is refused")
        }
        #expect(cli.exec(["otp", "add", "home", "--issuer", "Google", "--account-name", "alice@gmail.com"],
                        stdin: "JBSWY3DPEHPK3PXPJBSWY3DP").status == 0)
        // Issue 15: an ambiguous query prints every match's code with its name (as ykman does)...
        let each = cli.exec(["otp", "code", "Google", "--at", "@59"])
        #expect(each.status == 0, "\(each.stderr)")
        #expect(each.stdout.contains("home") && each.stdout.contains("work"))
        #expect(each.stdout.contains("287082"))
        let eachJSON = try cli.exec(["otp", "code", "Google", "--json"]).json()["codes"]?.arrayValue ?? []
        #expect(eachJSON.compactMap { $0["name"]?.stringValue } == ["home", "work"])
        // ... `otp list QUERY` lists the same tokens ...
        #expect(try cli.exec(["otp", "list", "Google", "--json"]).json()["tokens"]?.arrayValue?.count == 2)
        #expect(try cli.exec(["otp", "list", "gmail", "--json"]).json()["tokens"]?.arrayValue?.count == 1)
        #expect(cli.exec(["otp", "list", "nope"]).status == 3)
        // ... and --exact refuses it, as before.
        let ambiguous = cli.exec(["otp", "code", "Google", "--exact"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.contains("'Google' matches 2 tokens"))
        #expect(ambiguous.stderr.contains("be more precise: 'home (Google:alice@gmail.com)', 'work (Google:alice@corp.com)'"))
        #expect(ambiguous.stderr.split(separator: "\n").count == 1, "one line: \(ambiguous.stderr)")
        #expect(cli.exec(["otp", "code", "google:alice@gmail.com", "-q"]).status == 0, "issuer:account, any case")
        #expect(cli.exec(["otp", "code", "gmail", "-q"]).status == 0, "a unique substring")
        let none = cli.exec(["otp", "code", "nope"])
        #expect(none.status == 3 && none.stderr.contains("no token matches 'nope'"))
        #expect(try cli.exec(["otp", "code", "nope", "--json"]).errorJSON()["error"]?["serverErrorCode"]?.stringValue == "NOT_FOUND")
        #expect(cli.exec(["otp", "code", "work", "--at", "yesterday"]).status == 64)
        #expect(cli.exec(["otp", "code", "work", "--next", "x"]).status == 64)
    }

    @Test func badSecretsAndURIsAreRefusedAndNothingIsStored() throws {
        let cases: [([String], String, Int32, String)] = [
            (["otp", "add", "x"], "MZXW6YTB", 65, "too short"),
            (["otp", "add", "x"], "JBSW1Y3DPEHPK3PXP", 65, "not base32"),
            (["otp", "add", "x"], "", 64, "no secret given"),
            (["otp", "add"], rfcSecret, 64, "give the token a NAME"),
            (["otp", "add", "x", "--digits", "9"], rfcSecret, 64, "--digits must be 6 to 8"),
            (["otp", "add", "x", "--type", "motp"], rfcSecret, 64, "invalid value 'motp' for --type"),
            (["otp", "add", "x", "--secret", rfcSecret], "", 64, "unknown option"),
            (["otp", "add"], "otpauth://totp/A:b?issuer=A", 65, "no secret"),
            (["otp", "add"], "otpauth://totp/A:b?secret=\(rfcSecret)&algorithm=MD5", 65, "unknown algorithm"),
            (["otp", "add"], "otpauth://totp/A:b?secret=\(rfcSecret)&digits=12", 65, "digits must be 6 to 8"),
            (["otp", "add"], "otpauth://totp/A:b?secret=\(rfcSecret)&issuer=B", 65, "issuer differs"),
            (["otp", "add"], "otpauth://hotp/A:b?secret=\(rfcSecret)", 65, "needs a counter"),
            (["otp", "add"], "otpauth://totp/A:b?secret=\(rfcSecret)\notpauth://totp/C:d?secret=\(rfcSecret)", 65, "2 lines"),
        ]
        for (arguments, input, status, message) in cases {
            let result = cli.exec(arguments, stdin: input)
            #expect(result.status == status, "\(arguments) <<< \(input): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try cli.tokenNames("laptop").isEmpty)
        #expect(try cli.exec(["otp", "list", "--json"]).json()["tokens"] == .array([]))
        // A name can be used once.
        #expect(cli.exec(["otp", "add", "x"], stdin: rfcSecret).status == 0)
        let again = cli.exec(["otp", "add", "x"], stdin: "JBSWY3DPEHPK3PXPJBSWY3DP")
        #expect(again.status == 4 && again.stderr.contains("a token named 'x' exists"))
    }

    @Test func hotpCountersAdvanceAndPersist() throws {
        #expect(cli.exec(["otp", "add", "vpn", "--type", "hotp"], stdin: rfcSecret).status == 0)
        // RFC 4226 Appendix D, one code per call.
        let codes = (0..<4).map { _ in cli.exec(["otp", "code", "vpn", "-q"]).out }
        #expect(codes == ["755224", "287082", "359152", "969429"])
        #expect(cli.exec(["otp", "code", "vpn", "--at", "@59"]).status == 64, "--at is for time-based tokens")
        let peek = try cli.exec(["otp", "code", "vpn", "--next", "2", "--json"]).json()
        #expect(peek["code"]?.stringValue == "338314" && peek["counter"] == .int(4))
        #expect(peek["next"]?.arrayValue?.compactMap { $0["code"]?.stringValue } == ["254676", "287922"])
        #expect(try cli.exec(["otp", "list", "--json"]).json()["tokens"]?.arrayValue?.first?["counter"] == .int(5))
        let history = try cli.exec(["store", "history", "--json"]).ndjson()
        #expect(history.count == 6, "every advance is a recorded change")
    }

    @Test func verifyTOTPAcceptsAStepOnce() throws {
        #expect(cli.exec(["otp", "add", "rfc", "--digits", "8"], stdin: rfcSecret).status == 0)
        // 1111111109 is step 37037036: 07081804; the previous step's code is 14050471? no: check offsets.
        let now = ["--at", "@1111111111"]  // step 37037037 → 14050471
        let stale = cli.exec(["otp", "verify", "07081804", "rfc"] + now)
        #expect(stale.status == 0 && stale.out == "valid: step offset -1", "\(stale.stderr)")
        let replay = cli.exec(["otp", "verify", "07081804", "rfc"] + now)
        #expect(replay.status == 1 && replay.stderr.contains("already used"))
        let current = try cli.exec(["otp", "verify", "1405 0471", "rfc", "--json"] + now).json()
        #expect(current["valid"] == .bool(true) && current["offset"] == .int(0))
        #expect(cli.exec(["otp", "verify", "14050471", "rfc"] + now).status == 1, "not twice")
        #expect(cli.exec(["otp", "verify", "12345678", "rfc"] + now).status == 1)
        #expect(cli.exec(["otp", "verify", "89005924", "rfc", "--at", "@1234567890", "--window", "0"]).status == 0)
        #expect(cli.exec(["otp", "verify", "1", "rfc", "--window", "500"]).status == 64)
    }

    @Test func verifyHOTPLooksAhead() throws {
        #expect(cli.exec(["otp", "add", "vpn", "--type", "hotp", "--counter", "2"], stdin: rfcSecret).status == 0)
        #expect(cli.exec(["otp", "verify", "969429", "vpn"]).out == "valid: counter offset +1")  // counter 3
        #expect(cli.exec(["otp", "verify", "969429", "vpn"]).status == 1, "the counter moved past it")
        #expect(cli.exec(["otp", "verify", "162583", "vpn"]).status == 1, "counter 7 is beyond the window")
        #expect(cli.exec(["otp", "verify", "162583", "vpn", "--window", "5"]).status == 0)
        #expect(cli.exec(["otp", "code", "vpn", "-q"]).out == "399871", "counter 8 is next")
    }

    @Test func showRenameRemove() throws {
        #expect(cli.exec(["otp", "add", "--issuer", "GitHub", "--account-name", "alice", "--note", "backup codes in the safe"],
                        stdin: rfcSecret).status == 0)
        let shown = cli.exec(["otp", "show", "github"])
        #expect(shown.stdout.contains("GitHub:alice") && shown.stdout.contains("backup codes in the safe"))
        #expect(!shown.stdout.contains(rfcSecret), "no secret without --uri")
        let uri = cli.exec(["otp", "show", "github", "--uri"])
        #expect(uri.out == "otpauth://totp/GitHub:alice?secret=\(rfcSecret)&issuer=GitHub&algorithm=SHA1&digits=6&period=30")
        #expect(uri.stderr.isEmpty, "the warning is for terminals only")
        #expect(cli.exec(["otp", "rename", "github", "gh"]).status == 0)
        #expect(try cli.tokenNames("laptop") == ["gh"])
        #expect(cli.exec(["otp", "add", "other"], stdin: "JBSWY3DPEHPK3PXPJBSWY3DP").status == 0)
        #expect(cli.exec(["otp", "rename", "other", "gh"]).status == 4)
        let refused = cli.exec(["otp", "remove", "gh"])
        #expect(refused.status == 64 && refused.stderr.contains("--yes"))
        #expect(cli.exec(["otp", "remove", "gh", "other", "--yes"]).status == 0)
        #expect(try cli.tokenNames("laptop").isEmpty)
        #expect(cli.exec(["otp", "remove", "gh", "--yes"]).status == 3)
    }

    @Test func generatedSecretsAndFileModes() throws {
        let made = cli.exec(["otp", "add", "mine", "--generate", "--algorithm", "SHA256"])
        #expect(made.status == 0, "\(made.stderr)")
        let uri = cli.exec(["otp", "show", "mine", "--uri"]).out
        #expect(uri.contains("algorithm=SHA256"))
        let secret = uri.split(separator: "=")[1].prefix { $0 != "&" }
        #expect(secret.count == 52, "a 32-byte secret for SHA256")
        // The device file (which holds the secrets) is 0600 in a 0700 folder.
        var info = stat()
        #expect(stat(home.file("devices/alice/laptop.sqlite"), &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(home.file("devices/alice"), &info) == 0 && info.st_mode & 0o777 == 0o700)
    }
}

/// `otp add NAME` sets no issuer or account (help: they are what --issuer, --account-name or
/// the URI say); exports still label the token by its name.
@Suite("otp add NAME: no invented account (end to end)")
struct OTPAddLabelTests {
    let home = TemporaryDirectory("otp-add-labels-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func aNameAloneIsNotTheAccount() throws {
        let key = home.write("vpn.key", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ\n")
        #expect(cli.run(["otp", "add", "vpn", "--type", "hotp", "--secret-file", key]).status == 0)
        let shown = try cli.run(["otp", "show", "vpn", "--json"]).json()
        #expect(shown["name"] == .string("vpn"))
        #expect(shown["account"] == .string(""), "\(shown)")
        #expect(shown["issuer"] == .string(""))
        let list = cli.run(["otp", "list"]).stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(list.last == ["vpn", "hotp", "SHA1", "6", "digits", "counter", "0"], "\(list)")
        // The URI needs a label: the name.
        let uri = cli.run(["otp", "show", "vpn", "--uri"]).stdout
        #expect(uri.hasPrefix("otpauth://hotp/vpn?"), "\(uri)")
        // Given, they are kept.
        let github = cli.run(["otp", "add", "--issuer", "GitHub", "--account-name", "alice"], stdin: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP\n")
        #expect(github.status == 0, "\(github.stderr)")
        let gh = try cli.run(["otp", "show", "GitHub:alice", "--json"]).json()
        #expect(gh["account"] == .string("alice") && gh["issuer"] == .string("GitHub"))
    }
}
