import CloudSyncCore
import Glibc
import TestSupport
import Testing

/// Issue 30, items 7, 8 and 10, through the built binary: errors that name what failed, one
/// exit-status rule for one kind of mistake (docs/ARCHITECTURE.md, "Exit statuses"), and one
/// parser for every time a person types.
@Suite("A newcomer's errors, exit statuses and times (binary)")
struct NewcomerErrorsBinaryTests {
    let home = TemporaryDirectory("newcomer-errors")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    // MARK: Item 7: errors that name what failed

    @Test func anUnreachableServerIsNamedWithTheCause() {
        let result = cli.run(["--cloud", "http://127.0.0.1:1", "zone", "list"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("cannot reach the cloud at http://127.0.0.1:1"), "\(result.stderr)")
        // curl's own sentence: the host and port it tried, not only "Couldn't connect".
        #expect(result.stderr.contains("127.0.0.1 port 1"), "\(result.stderr)")
    }

    @Test func aWrongSchemeListsEveryAcceptedOne() {
        for url in ["htp://example.org", "notaurl"] {
            let result = cli.run(["--cloud", url, "zone", "list"])
            #expect(result.status == 64 || result.status == 65, "\(url): \(result.status) \(result.stderr)")
            for scheme in ["sqlite:///", "postgres://", "http://", "https://"] {
                #expect(result.stderr.contains(scheme), "\(url) should list \(scheme): \(result.stderr)")
            }
        }
        let login = cli.run(["login", "notaurl"])
        #expect(login.status == 64, "\(login.stderr)")
        #expect(login.stderr.contains("http://HOST:PORT") && login.stderr.contains("https://HOST:PORT")
                && login.stderr.contains("'notaurl'"), "\(login.stderr)")
    }

    // MARK: Item 8: one exit status per kind of mistake

    @Test func aMissingSecretInputIsAUsageError() {
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "a=b"]).status == 0)
        let cases: [([String], [String: String], String)] = [
            (["keys", "unlock"], [:], "CLOUDSYNC_PASSPHRASE"),
            (["keys", "passphrase", "change"], [:], "CLOUDSYNC_PASSPHRASE"),
            (["keys", "passphrase", "change"], ["CLOUDSYNC_PASSPHRASE": "old"], "CLOUDSYNC_NEW_PASSPHRASE"),
            (["login", "http://127.0.0.1:1"], [:], "no token given"),
            (["otp", "add", "x"], [:], "no secret given"),
        ]
        for (arguments, env, message) in cases {
            let result = cli.run(arguments, stdin: "", env: env)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aSharedDatabaseRecordCommandWithoutOwnerIsAUsageError() {
        #expect(cli.run(["zone", "create", "Trips"]).status == 0)
        let cases: [[String]] = [
            ["record", "get", "x", "--zone", "Trips", "--database", "shared"],
            ["record", "delete", "x", "--zone", "Trips", "--database", "shared"],
            ["record", "save", "Note", "x", "--zone", "Trips", "--database", "shared", "--field", "a=b"],
            ["record", "query", "Note", "--zone", "Trips", "--database", "shared"],
        ]
        for arguments in cases {
            let result = cli.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("--owner OWNER"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func anUnusableHomeIsALocalIOError() throws {
        // A home under a regular file cannot be made; a home where no file can be created
        // (/proc/self, even for root) cannot hold the cloud. Neither is "the cloud cannot be
        // reached" (69).
        let file = home.path + "/plain-file"
        #expect(creat(file, 0o600) >= 0)
        for badHome in [file + "/home", "/proc/self"] {
            for arguments in [["zone", "create", "Notes"], ["store", "put", "Note", "n", "--field", "a=b", "--create-zone"]] {
                let result = cli.run(arguments, env: ["CLOUDSYNC_HOME": badHome])
                #expect(result.status == 74, "\(badHome) \(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.hasPrefix("cloudsync: error: ")
                        && result.stderr.contains(badHome == "/proc/self" ? "/proc/self" : "plain-file"), "\(result.stderr)")
            }
        }
    }

    // MARK: Item 10: one parser for every time

    @Test func otpTimesTakeEveryForm() throws {
        #expect(cli.run(["otp", "add", "t", "--generate"]).status == 0)
        func code(_ at: String) -> String {
            let result = cli.run(["otp", "code", "t", "--at", at, "-q"])
            #expect(result.status == 0, "--at \(at): \(result.stderr)")
            return result.stdout
        }
        let iso = code("2023-11-14T22:13:20Z")
        #expect(!iso.isEmpty)
        #expect(code("@1700000000") == iso)
        #expect(code("1700000000000") == iso, "epoch milliseconds, as TIMESTAMP fields")
        #expect(code("1700000000") != iso, "a bare number is milliseconds (1970-01-20), as everywhere")
        let verify = cli.run(["otp", "verify", iso.filter(\.isNumber), "t", "--at", "1700000000000"])
        #expect(verify.status == 0, "\(verify.stderr)")
        let bad = cli.run(["otp", "code", "t", "--at", "yesterday"])
        #expect(bad.status == 64 && bad.stderr.contains("@epoch-seconds") && bad.stderr.contains("epoch milliseconds"), "\(bad.stderr)")
    }

    @Test func messageSinceTakesEveryForm() {
        for since in ["@1700000000", "1700000000000", "2023-11-14T22:13:20Z"] {
            let result = cli.run(["message", "inbox", "--since", since, "--json"])
            #expect(result.status == 0, "--since \(since): \(result.stderr)")
        }
        let bad = cli.run(["message", "inbox", "--since", "@soon"])
        #expect(bad.status == 64 && bad.stderr.contains("@epoch-seconds"), "\(bad.stderr)")
    }
}
