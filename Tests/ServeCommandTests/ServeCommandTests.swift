import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `cloudsync serve` on 127.0.0.1 (a free port) over a cloud file in its own home, with a
/// token for alice; stopped with SIGTERM by `stop()`.
final class ServeFixture {
    let serverHome = TemporaryDirectory("serve-server")
    let server: BinaryRunner
    let process: BackgroundProcess
    let url: String
    let token: String
    let cloud: String

    /// `cloud` defaults to a file in the server's home; `token` (made with `token create` when
    /// nil) is the one clients send; `environment` is the serve process's extra environment.
    init(account: String = "alice", admin: Bool = false, serveArguments: [String] = [], cloud: String? = nil, token: String? = nil,
         environment: [String: String] = [:]) throws {
        server = BinaryRunner(home: serverHome.path)
        let cloud = cloud ?? "sqlite://" + serverHome.file("cloud.sqlite")
        self.cloud = cloud
        if let token {
            self.token = token
        } else {
            let created = server.run(["token", "create", "--account", account, "--cloud", cloud] + (admin ? ["--admin"] : []))
            self.token = trimmed(created.stdout)
        }
        var serving = server
        for (key, value) in environment { serving.environment[key] = value }
        process = BackgroundProcess(serving, ["serve", "--listen", "127.0.0.1:0", "--cloud", cloud,
                                              "--log", serverHome.file("requests.log")] + serveArguments,
                                    device: "server", stdout: serverHome.file("out"), stderr: serverHome.file("err"))
        guard BackgroundProcess.waitForText("\n", in: serverHome.file("out"), seconds: 20) else {
            throw CloudError(.networkUnavailable, "serve did not start: " + BackgroundProcess.read(serverHome.file("err")))
        }
        url = String(trimmed(BackgroundProcess.read(serverHome.file("out"))).dropFirst("listening on ".count))
    }

    /// A client home that shares no file with the server or other clients.
    func client(_ name: String, token: String? = nil) -> (TemporaryDirectory, BinaryRunner) {
        let home = TemporaryDirectory("serve-client-\(name)")
        return (home, BinaryRunner(home: home.path, extra: ["CLOUDSYNC_CLOUD": url, "CLOUDSYNC_TOKEN": token ?? self.token]))
    }

    var log: String { BackgroundProcess.read(serverHome.file("requests.log")) }

    /// SIGTERM; the exit status.
    func stop() -> Int32? {
        kill(process.pid, SIGTERM)
        return process.wait(seconds: 20)
    }

    deinit { if kill(process.pid, 0) == 0 { _ = process.wait(seconds: 0) } }
}

@Suite("cloudsync serve (end to end)")
struct ServeCommandTests {
    @Test func twoHomesShareRecordsAndKeyValuesThroughTheServer() throws {
        let fixture = try ServeFixture()
        let (homeA, a) = fixture.client("a")
        let (homeB, b) = fixture.client("b")
        _ = (homeA, homeB)
        let zone = a.run(["zone", "create", "Notes"], device: "a")
        #expect(zone.status == 0, "\(zone.stderr)")
        let saved = a.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=hello"], device: "a")
        #expect(saved.status == 0, "\(saved.stderr)")
        let query = b.run(["record", "query", "Note", "--zone", "Notes", "--json"], device: "b")
        #expect(query.status == 0, "\(query.stderr)")
        #expect(query.stdout.contains("hello"))
        #expect(a.run(["kv", "set", "theme", "dark"], device: "a").status == 0)
        #expect(a.run(["kv", "sync"], device: "a").status == 0)
        #expect(b.run(["kv", "sync"], device: "b").status == 0)
        #expect(b.run(["kv", "get", "theme"], device: "b").stdout == "dark\n")
        #expect(fixture.stop() == 0)
        #expect(fixture.log.contains("records/modify alice 200"), "\(fixture.log)")
    }

    @Test func credentialsAndReachability() throws {
        let fixture = try ServeFixture()
        let (_, wrong) = fixture.client("wrong", token: "cst_not-a-token")
        let bad = wrong.run(["zone", "list"], device: "x")
        #expect(bad.status == 77, "\(bad.stderr)")
        #expect(bad.stderr.contains("authentication failed"))
        let (_, alice) = fixture.client("bob")
        let other = alice.run(["--account", "bob", "zone", "list"], device: "x")
        #expect(other.status == 77, "\(other.stderr)")
        #expect(fixture.log.contains(" - 401 "), "\(fixture.log)")
        let (_, spaced) = fixture.client("spaced", token: "cst_a b")
        let refused = spaced.run(["zone", "list"], device: "x")
        #expect(refused.status == 64 && refused.stderr.contains("control characters"), "never sent: \(refused.stderr)")
        #expect(fixture.stop() == 0)
        let (_, late) = fixture.client("late")
        let down = late.run(["zone", "list"], device: "x")
        #expect(down.status == 69, "\(down.stderr)")
    }

    @Test func badServeOptionsAreUsageErrorsAndABusyPortIsUnavailable() throws {
        let fixture = try ServeFixture()
        let cloud = ["--cloud", fixture.cloud]
        for (arguments, what) in [(["--listen", "nowhere"], "HOST:PORT"), (["--listen", "127.0.0.1:99999"], "port"),
                                  (["--max-connections", "0"], "max-connections"), (["--tls-cert", "c.pem"], "together"),
                                  (["--db-connections", "0"], "db-connections"), (["--db-connections", "many"], "db-connections")] {
            let result = fixture.server.run(["serve"] + arguments + cloud)
            #expect(result.status == 64 && result.stderr.contains(what), "\(arguments): \(result.stderr)")
        }
        let remote = fixture.server.run(["serve", "--cloud", fixture.url])
        #expect(remote.status == 64 && remote.stderr.contains("not a server URL"), "\(remote.stderr)")
        let port = String(fixture.url.split(separator: ":").last ?? "")
        let busy = fixture.server.run(["serve", "--listen", "127.0.0.1:" + port] + cloud)
        #expect(busy.status == 69, "\(busy.stderr)")
        let tokenOverHTTP = fixture.server.run(["token", "list", "--cloud", fixture.url])
        #expect(tokenOverHTTP.status == 64, "\(tokenOverHTTP.stderr)")
        #expect(fixture.stop() == 0)
    }

    @Test func httpsWithTheGivenCertificate() throws {
        let keys = TemporaryDirectory("serve-tls")
        let made = ProcessSpawner.run("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", keys.file("key.pem"),
            "-out", keys.file("cert.pem"), "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
        ], environment: ["PATH": "/usr/bin:/bin"])
        #expect(made.status == 0, "\(made.stderr)")
        let fixture = try ServeFixture(serveArguments: ["--tls-cert", keys.file("cert.pem"), "--tls-key", keys.file("key.pem")])
        #expect(fixture.url.hasPrefix("https://127.0.0.1:"))
        let path = "/database/1/iCloud.com.example.App/development/private/users/current"
        let reply = ProcessSpawner.run("/usr/bin/curl", ["-sS", "--cacert", keys.file("cert.pem"), "-H", "Authorization: Bearer " + fixture.token,
                                                         "--data-binary", "{}", fixture.url + path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(reply.status == 0, "\(reply.stderr)")
        #expect(try JSONValue.parse(reply.stdout)["userRecordName"]?.stringValue?.hasPrefix("_") == true, "\(reply.stdout)")
        #expect(fixture.log.contains("users/current alice 200"))
        // cloudsync as the client, trusting the certificate through CLOUDSYNC_CA_FILE.
        let (_, client) = fixture.client("tls")
        let untrusted = client.run(["zone", "list"], device: "t")
        #expect(untrusted.status != 0, "a self-signed certificate is not trusted by default")
        let trusted = client.run(["zone", "create", "Secure"], device: "t", env: ["CLOUDSYNC_CA_FILE": keys.file("cert.pem")])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(fixture.stop() == 0)
    }

    @Test func tokensAreListedAndRevokedButNeverShownAgain() throws {
        let fixture = try ServeFixture()
        let list = fixture.server.run(["token", "list", "--json", "--cloud", fixture.cloud])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(!list.stdout.contains(fixture.token))
        let id = try list.json()["tokens"]?.arrayValue?.first?["id"]?.stringValue ?? ""
        #expect(id.hasPrefix("tok_"))
        let (_, client) = fixture.client("c")
        #expect(client.run(["zone", "list"], device: "c").status == 0)
        // Issue 30: times are epoch milliseconds, as everywhere in --json, and LAST USED moves
        // with each use (a second apart), not only at the first.
        func lastUsed() throws -> Int64? {
            try fixture.server.run(["token", "list", "--json", "--cloud", fixture.cloud]).json()["tokens"]?.arrayValue?
                .first { $0["id"]?.stringValue == id }?["lastUsed"]?.int64Value
        }
        let firstUse = try #require(try lastUsed())
        #expect(try list.json()["tokens"]?.arrayValue?.first?["created"]?.int64Value ?? 0 > 1_600_000_000_000)
        sleepSeconds(1.2)
        #expect(client.run(["zone", "list"], device: "c").status == 0)
        #expect(try #require(try lastUsed()) >= firstUse + 1000, "LAST USED moved with the second use")
        #expect(fixture.server.run(["token", "revoke", id, "--cloud", fixture.cloud]).status == 0)
        #expect(client.run(["zone", "list"], device: "c").status == 77)
        #expect(fixture.server.run(["token", "revoke", id, "--cloud", fixture.cloud]).status == 3)
        let fileBytes = TemporaryDirectory.readBytes(fixture.serverHome.file("cloud.sqlite")) ?? []
        #expect(!String(decoding: fileBytes, as: UTF8.self).contains(fixture.token), "only the hash is stored")
        #expect(fixture.stop() == 0)
    }

    @Test func loginStoresTheTokenPrivately() throws {
        let fixture = try ServeFixture()
        let home = TemporaryDirectory("serve-login")
        let client = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_CLOUD": fixture.url])
        #expect(client.run(["zone", "list"], device: "l").status == 77)
        let login = client.run(["login", fixture.url], stdin: fixture.token + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(client.run(["zone", "list"], device: "l").status == 0)
        let folder = home.path + "/state/cloudsync/logins"
        let names = (try? FileManagerLite.entries(folder)) ?? []
        #expect(names.count == 1)
        var info = stat()
        #expect(stat(folder + "/" + (names.first ?? ""), &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(fixture.stop() == 0)
    }

    /// The request log names accounts and peers: it is created 0600 like every other state file
    /// (it was 0640). Checked under the usual umask 022, which keeps group bits.
    @Test func theRequestLogIsCreatedPrivate() throws {
        let fixture = try ServeFixture()
        let (_, client) = fixture.client("log-mode")
        #expect(client.run(["zone", "list"], device: "l").status == 0)
        var info = stat()
        #expect(stat(fixture.serverHome.file("requests.log"), &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(fixture.stop() == 0)
    }

    @Test func sixtyFourConcurrentClientsEachSave() throws {
        let fixture = try ServeFixture()
        let (_, client) = fixture.client("many")
        #expect(client.run(["zone", "create", "Many"], device: "d0").status == 0)
        let processes = (0..<64).map { index in
            client.start(["record", "save", "Note", "r\(index)", "--zone", "Many", "--field", "n:INT64=\(index)"], device: "d\(index)")
        }
        let statuses = processes.map { $0.wait() }
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        let query = client.run(["record", "query", "Note", "--zone", "Many", "--json"], device: "d0")
        #expect(query.status == 0, "\(query.stderr)")
        let names = Set((0..<64).map { "r\($0)" })
        let found = names.filter { query.stdout.contains("\"\($0)\"") }
        #expect(found.count == 64)
        #expect(fixture.stop() == 0)
    }
}

/// Folder listing with opendir(3).
enum FileManagerLite {
    static func entries(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// `text` without leading and trailing white space.
func trimmed(_ text: String) -> String {
    var slice = Substring(text)
    while slice.first?.isWhitespace == true { slice.removeFirst() }
    while slice.last?.isWhitespace == true { slice.removeLast() }
    return String(slice)
}

@Suite("cloudsync serve: the store, OTP and subscriptions across homes (end to end)")
struct ServeSyncTests {
    @Test func theStoreAndOTPTokensSyncAndAListenerWakes() throws {
        let fixture = try ServeFixture()
        let (homeA, a) = fixture.client("store-a")
        let (homeB, b) = fixture.client("store-b")
        _ = (homeA, homeB)
        // The store: on, a put on one machine, read on the other.
        #expect(a.run(["store", "sync", "on"], device: "laptop").status == 0)
        #expect(a.run(["store", "put", "Todo", "milk", "--field", "title=Buy milk"], device: "laptop").status == 0)
        let pushed = a.run(["store", "sync"], device: "laptop")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let pulled = b.run(["store", "sync"], device: "desk")
        #expect(pulled.status == 0, "\(pulled.stderr)")
        #expect(b.run(["store", "get", "milk"], device: "desk").stdout.contains("Buy milk"))
        // OTP tokens ride the same switch.
        let added = a.run(["otp", "add", "--issuer", "GitHub", "--account-name", "alice"], device: "laptop", stdin: "JBSWY3DPEHPK3PXP\n")
        #expect(added.status == 0, "\(added.stderr)")
        let passphrase = ["CLOUDSYNC_PASSPHRASE": "correct horse battery staple"]
        let otpPushed = a.run(["otp", "sync"], device: "laptop", env: passphrase)
        #expect(otpPushed.status == 0, "\(otpPushed.stderr)")
        let otpPulled = b.run(["otp", "sync"], device: "desk", env: passphrase)
        #expect(otpPulled.status == 0, "\(otpPulled.stderr)")
        let codes = b.run(["otp", "code"], device: "desk", env: passphrase)
        #expect(codes.status == 0, "\(codes.stderr)")
        #expect(codes.stdout.contains("GitHub:alice"))
        // A listener on the desk wakes (long poll, no polling by the client) for a laptop save.
        #expect(a.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(b.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "desk").status == 0)
        let listener = BackgroundProcess(b, ["subscribe", "listen", "--once", "--timeout", "30"], device: "desk",
                                         stdout: homeB.file("listen.out"), stderr: homeB.file("listen.err"))
        #expect(BackgroundProcess.waitForText("notifications/poll alice", in: fixture.serverHome.file("requests.log"), seconds: 20)
                || fixture.log.contains("notifications/poll"))
        #expect(a.run(["record", "save", "Note", "n1", "--zone", "Notes"], device: "laptop").status == 0)
        #expect(listener.wait(seconds: 30) == 0, "\(BackgroundProcess.read(homeB.file("listen.err")))")
        #expect(BackgroundProcess.read(homeB.file("listen.out")).contains("database changed (subscription db)"))
        #expect(fixture.stop() == 0)
    }
}
