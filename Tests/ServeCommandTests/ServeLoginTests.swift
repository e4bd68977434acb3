import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 26: the account comes from the credential. A command with a token and without
/// `--account` acts as the token's account (asked once with `users/current`), and `login`
/// checks the token before it stores it with its account.
@Suite("cloudsync serve: the account comes from the token (end to end)")
struct ServeLoginTests {
    /// Lines of the request log holding `text` (the account's question is `users/current` on
    /// the public database; each command's sign-in asks it on the private one).
    static func count(_ text: String, in log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(text) }.count
    }

    @Test func aTokenWithoutAccountActsAsItsAccount() throws {
        let fixture = try ServeFixture()
        let (home, named) = fixture.client("credential-account")
        var client = named
        client.environment["CLOUDSYNC_ACCOUNT"] = nil  // BinaryRunner names alice; here no account is given
        let saved = client.run(["record", "save", "Note", "n1"], device: "laptop")
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(client.run(["zone", "list"], device: "laptop").status == 0)
        #expect(Self.count("public/users/current", in: fixture.log) == 1, "asked once, then kept:\n\(fixture.log)")
        let other = client.run(["--account", "bob", "zone", "list"], device: "laptop")
        #expect(other.status == 77, "\(other.stderr)")
        let whoami = client.run(["whoami"], device: "laptop")
        #expect(whoami.stdout.contains("account:     alice (from the token for \(fixture.url))"), "\(whoami.stdout)")
        let json = try client.run(["--json", "whoami"], device: "laptop").json()
        #expect(json["account"] == .string("alice"))
        #expect(json["accountSource"] == .string("the token for \(fixture.url)"))
        let explicit = try client.run(["--json", "--account", "alice", "whoami"], device: "laptop").json()
        #expect(explicit["accountSource"] == .string("--account"))
        // The kept answer names no token in the clear.
        let folder = home.path + "/state/cloudsync/credential-accounts"
        for name in (try? FileManagerLite.entries(folder)) ?? [] {
            let text = BackgroundProcess.read(folder + "/" + name)
            #expect(!text.contains(fixture.token) && text.contains("account alice"))
            var info = stat()
            #expect(stat(folder + "/" + name, &info) == 0 && info.st_mode & 0o777 == 0o600)
        }
        #expect(fixture.stop() == 0)
    }

    @Test func loginChecksTheTokenAndKeepsItsAccount() throws {
        let fixture = try ServeFixture()
        let home = TemporaryDirectory("serve-login-account")
        var client = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_CLOUD": fixture.url])
        client.environment["CLOUDSYNC_ACCOUNT"] = nil  // BinaryRunner names alice; here no account is given
        let folder = home.path + "/state/cloudsync/logins"

        let refused = client.run(["login", fixture.url], stdin: "not-a-token\n")
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(((try? FileManagerLite.entries(folder)) ?? []).isEmpty, "nothing stored for a refused token")

        let away = client.run(["login", "http://127.0.0.1:1"], stdin: fixture.token + "\n")
        #expect(away.status == 69, "\(away.stderr)")
        #expect(away.stderr.split(separator: "127.0.0.1:1", omittingEmptySubsequences: false).count == 2, "the URL is named once: \(away.stderr)")
        #expect(away.stderr.contains("nothing was stored"), "\(away.stderr)")
        #expect(((try? FileManagerLite.entries(folder)) ?? []).isEmpty, "nothing stored for a server that is not there")

        let login = client.run(["login", fixture.url], stdin: fixture.token + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout == "logged in to \(fixture.url) as alice\n")
        let names = (try? FileManagerLite.entries(folder)) ?? []
        #expect(names.count == 1)
        let stored = BackgroundProcess.read(folder + "/" + (names.first ?? ""))
        #expect(stored.contains("account alice"))
        var info = stat()
        #expect(stat(folder + "/" + (names.first ?? ""), &info) == 0 && info.st_mode & 0o777 == 0o600)
        let asked = Self.count("public/users/current", in: fixture.log)
        let listed = client.run(["zone", "list"], device: "l")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(Self.count("public/users/current", in: fixture.log) == asked, "the stored login's account is used, not asked again")
        #expect(client.run(["whoami"], device: "l").stdout.contains("account:     alice (from the token for"))
        #expect(client.run(["--account", "bob", "zone", "list"], device: "l").status == 77)
        #expect(fixture.stop() == 0)
    }
}
