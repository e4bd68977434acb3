import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every runnable command documents what it prints with --json (the JSON OUTPUT sections of the
/// man pages, read here from `help PATH --json`), and running the real commands prints exactly
/// that: each documented key that is not optional is there, and nothing undocumented is at the
/// top level.
@Suite("JSON OUTPUT: documented shapes against the real commands (through the binary)")
struct JSONOutputTests {
    /// Commands with no shape of their own, and why.
    static let exempt: [[String]: String] = [
        ["repl"]: "each line prints what its own command prints",
    ]

    /// One run of the binary: `checks` names the command whose documented shape the output
    /// must have (nil for a setup step).
    struct Step {
        var checks: [String]?
        var arguments: [String]
        var stdin = ""
        var env: [String: String] = [:]
        var status: Int32 = 0
    }

    static func check(_ path: String, _ arguments: [String], stdin: String = "", env: [String: String] = [:],
                      status: Int32 = 0) -> Step {
        Step(checks: path.split(separator: " ").map(String.init), arguments: arguments, stdin: stdin, env: env, status: status)
    }

    static func setup(_ arguments: [String], stdin: String = "", env: [String: String] = [:]) -> Step {
        Step(checks: nil, arguments: arguments, stdin: stdin, env: env)
    }

    /// Top-level keys of a printed object (an empty list for anything else).
    static func keys(_ value: JSONValue) -> [String] { value.objectValue?.map(\.0) ?? [] }

    /// The problems with `stdout` against a documented shape.
    static func problems(_ stdout: String, _ shape: JSONValue) -> [String] {
        let form = shape["form"]?.stringValue ?? ""
        let documented = (shape["keys"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        let required = (shape["keys"]?.arrayValue ?? []).filter { $0["optional"] == .bool(false) }
            .compactMap { $0["name"]?.stringValue }
        func objectProblems(_ value: JSONValue, _ what: String) -> [String] {
            guard value.objectValue != nil else { return ["\(what) is not an object"] }
            let keys = Self.keys(value)
            return keys.filter { !documented.contains($0) }.map { "\(what): undocumented key '\($0)'" }
                + required.filter { !keys.contains($0) }.map { "\(what): documented key '\($0)' missing" }
        }
        switch form {
        case "nothing":
            return stdout.isEmpty ? [] : ["prints \(stdout.prefix(80)) where nothing is documented"]
        case "document":
            guard let value = try? JSONValue.parse(stdout) else { return ["not one JSON document: \(stdout.prefix(80))"] }
            return objectProblems(value, "the document")
        case "array":
            guard let items = (try? JSONValue.parse(stdout))?.arrayValue else { return ["not a JSON array: \(stdout.prefix(80))"] }
            return items.flatMap { objectProblems($0, "an element") }
        case "lines":
            let lines = stdout.split(separator: "\n")
            if lines.isEmpty { return ["no line printed"] }
            return lines.flatMap { line -> [String] in
                guard let value = try? JSONValue.parse(String(line)) else { return ["not JSON: \(line.prefix(80))"] }
                return objectProblems(value, "a line")
            }
        default:
            return ["unknown form '\(form)'"]
        }
    }

    static let rfc = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    @Test func everyCommandPrintsItsDocumentedShape() throws {
        let pages = try HelpExamplesTests.pages()
        var shapes: [[String]: JSONValue] = [:]
        for page in pages where (page.json["subcommands"]?.arrayValue ?? []).isEmpty && !page.path.isEmpty {
            if Self.exempt[page.path] != nil { continue }
            guard let shape = page.json["jsonOutput"], shape != .null else {
                Issue.record("cloudsync \(page.path.joined(separator: " ")) documents no JSON output")
                continue
            }
            shapes[page.path] = shape
        }

        let home = TemporaryDirectory("json-output")
        let cli = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop", "CLOUDSYNC_PASSPHRASE": "pw"])
        let schema = home.write("schema.ckdb", "DEFINE SCHEMA\n  RECORD TYPE Note (\n    title STRING QUERYABLE\n  );\n")
        home.makeDirectory("keys")
        let publicKey = home.file("keys/ec.pub")
        let keyMade = ProcessSpawner.run("/bin/sh", ["-c", "openssl ecparam -name prime256v1 -genkey -noout -out \"$1/ec.pem\" && openssl ec -in \"$1/ec.pem\" -pubout -out \"$1/ec.pub\"", "sh", home.file("keys")], environment: ["PATH": "/usr/bin:/bin"])
        #expect(keyMade.status == 0, "\(keyMade.stderr)")

        var steps: [Step] = [
            Self.check("zone create", ["zone", "create", "Notes", "Gone", "--atomic"]),
            Self.check("zone list", ["zone", "list"]),
            Self.check("zone delete", ["zone", "delete", "Gone", "--yes"]),
            Self.check("record save", ["record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=Hi"]),
            Self.setup(["record", "save", "Note", "n2", "--zone", "Notes", "--field", "title=Bye"]),
            Self.check("record get", ["record", "get", "n1", "--zone", "Notes"]),
            Self.check("record query", ["record", "query", "Note", "--zone", "Notes"]),
            Self.check("fetch-changes", ["fetch-changes"]),
            Self.check("record delete", ["record", "delete", "n2", "--zone", "Notes"]),
            Self.check("store put", ["store", "put", "Todo", "milk", "--field", "title=Milk"]),
            Self.setup(["store", "put", "Todo", "eggs", "--field", "title=Eggs"]),
            Self.check("store get", ["store", "get", "milk"]),
            Self.check("store query", ["store", "query", "Todo"]),
            Self.check("store history", ["store", "history"]),
            Self.check("store status", ["store", "status"]),
            Self.check("store config", ["store", "config"]),
            Self.check("store conflicts", ["store", "conflicts"]),
            Self.check("store export", ["store", "export"]),
            Self.check("store import", ["store", "import", "-"],
                       stdin: #"{"recordName":"tea","recordType":"Todo","fields":{"title":{"value":"Tea","type":"STRING"}}}"# + "\n"),
            Self.check("store delete", ["store", "delete", "eggs"]),
            Self.check("store sync", ["store", "sync"]),
            Self.check("store sync", ["store", "sync", "on"]),
            Self.check("store sync", ["store", "sync"]),
            Self.setup(["store", "config", "public-types", "Post"]),
            Self.check("store config", ["store", "config"]),
            Self.check("store put", ["store", "put", "Post", "p1", "--database", "public", "--field", "title=Hi"]),
            Self.check("store sync", ["store", "sync", "--database", "public"]),
            Self.check("store status", ["store", "status", "--database", "public"]),
            Self.check("store revert", ["store", "revert", "p1", "--database", "public"]),
            Self.check("kv set", ["kv", "set", "theme", "dark"]),
            Self.check("kv get", ["kv", "get", "theme"]),
            Self.check("kv list", ["kv", "list"]),
            Self.check("kv delete", ["kv", "delete", "theme"]),
            Self.check("kv sync", ["kv", "sync"]),
            Self.check("sync", ["sync"]),
            Self.check("subscribe create", ["subscribe", "create", "--zone", "Notes", "--id", "z1"]),
            Self.check("subscribe list", ["subscribe", "list"]),
            Self.check("subscribe init", ["subscribe", "init", "--zone", "Notes"]),
            Self.setup(["record", "save", "Note", "n3", "--zone", "Notes"], env: ["CLOUDSYNC_DEVICE": "phone"]),
            Self.check("subscribe listen", ["subscribe", "listen", "--timeout", "0"]),
            Self.check("subscribe delete", ["subscribe", "delete", "z1"]),
            Self.check("subscribe unregister", ["subscribe", "unregister"]),
            Self.check("schema validate", ["schema", "validate", schema]),
            Self.check("schema diff", ["schema", "diff", schema]),
            Self.check("schema import", ["schema", "import", schema]),
            Self.check("schema export", ["schema", "export"]),
            Self.check("schema show", ["schema", "show"]),
            Self.check("schema init", ["schema", "init", "--dry-run"]),
            Self.check("schema deploy", ["schema", "deploy", "--dry-run"]),
            Self.check("schema reset", ["schema", "reset", "--yes"]),
            Self.check("keys unlock", ["keys", "unlock"]),
            Self.check("keys status", ["keys", "status"]),
            Self.check("keys identity", ["keys", "identity"]),
            Self.setup(["--account", "bob", "keys", "identity"]),
            Self.check("keys show", ["keys", "show", "bob"]),
            Self.check("keys rotate", ["keys", "rotate"]),
            Self.check("keys export-identity", ["keys", "export-identity", "--output", home.file("identity.pem")]),
            Self.check("message send", ["message", "send", "bob", "hello"]),
            Self.check("message outbox", ["message", "outbox"]),
            Self.check("message inbox", ["--account", "bob", "message", "inbox"]),
            Self.check("keys passphrase change", ["keys", "passphrase", "change"], env: ["CLOUDSYNC_NEW_PASSPHRASE": "pw2"]),
            Self.setup(["keys", "passphrase", "change"], env: ["CLOUDSYNC_PASSPHRASE": "pw2", "CLOUDSYNC_NEW_PASSPHRASE": "pw"]),
            Self.check("keys lock", ["keys", "lock"]),
            Self.check("otp add", ["otp", "add", "rfc", "--digits", "8"], stdin: Self.rfc + "\n"),
            Self.check("otp code", ["otp", "code", "rfc"]),
            Self.check("otp code", ["otp", "code"]),
            Self.check("otp verify", ["otp", "verify", "94287082", "rfc", "--at", "@59"]),
            Self.check("otp list", ["otp", "list"]),
            Self.check("otp show", ["otp", "show", "rfc"]),
            Self.check("otp show", ["otp", "show", "rfc", "--uri"]),
            Self.check("otp rename", ["otp", "rename", "rfc", "rfc2"]),
            Self.check("otp export", ["otp", "export"]),
            Self.check("otp export", ["otp", "export", "--format", "aegis"]),
            Self.check("otp export", ["otp", "export", "-o", home.file("otp.txt")]),
            Self.check("otp import", ["otp", "import", home.file("otp.txt"), "--dry-run"]),
            Self.check("otp sync", ["otp", "sync"]),
            Self.check("otp remove", ["otp", "remove", "rfc2", "--yes"]),
            Self.check("token create", ["token", "create"]),
            Self.check("token list", ["token", "list"]),
            Self.check("token add-key", ["token", "add-key", "--public-key", publicKey]),
            Self.check("admin list", ["admin", "list"]),
            Self.check("admin add", ["admin", "add", "alice"]),
            Self.check("admin add", ["admin", "add", "bob"]),
            Self.check("admin remove", ["admin", "remove", "bob"]),
            Self.setup(["zone", "create", "Trips"]),
            Self.setup(["--account", "carol", "zone", "create", "Own"]),  // registers carol (a read-only command no longer needs to)
            Self.check("share create", ["share", "create", "--zone", "Trips"]),
            Self.check("share add", ["share", "add", "--zone", "Trips", "bob", "carol"]),
            Self.check("share remove", ["share", "remove", "--zone", "Trips", "carol"]),
            Self.check("share list", ["share", "list"]),
            Self.check("whoami", ["whoami"]),
            Self.check("cloud check", ["cloud", "check"]),
            Self.check("cloud create", ["--cloud", "sqlite://" + home.file("made.sqlite"), "cloud", "create"]),
            Self.check("cloud copy", ["cloud", "copy", "--from", "sqlite://" + home.file("cloud.sqlite"),
                                      "--to", "sqlite://" + home.file("copy.sqlite")]),
            Self.check("tour", ["tour"], status: 64),
            Self.check("help", ["help", "zone"]),
            Self.check("help", ["help", "-a"]),
        ]
        // Steps that need an ID printed by an earlier one are added as they become known.
        var checked: Set<[String]> = []
        var index = 0
        while index < steps.count {
            let step = steps[index]
            index += 1
            let result = cli.run(["--json"] + step.arguments, stdin: step.stdin, env: step.env)
            #expect(result.status == step.status, "\(step.arguments): \(result.stderr)")
            guard let path = step.checks else { continue }
            guard let shape = shapes[path] else {
                Issue.record("no documented shape for \(path)")
                continue
            }
            checked.insert(path)
            for problem in Self.problems(result.stdout, shape) {
                Issue.record("cloudsync \(path.joined(separator: " ")) \(step.arguments.dropFirst(path.count)): \(problem)")
            }
            if path == ["message", "send"], let id = try? result.json()["id"]?.stringValue {
                steps.append(Self.check("message read", ["message", "read", id]))
                steps.append(Self.check("message delete", ["message", "delete", id]))
            }
            if path == ["keys", "show"], let fingerprint = try? result.json()["fingerprint"]?.stringValue {
                steps.append(Self.check("keys trust", ["keys", "trust", "bob", fingerprint]))
            }
            if path == ["share", "create"], let url = try? result.json()["url"]?.stringValue {
                steps.append(Self.check("share accept", ["--account", "bob", "share", "accept", url]))
                steps.append(Self.check("share leave", ["--account", "bob", "share", "leave", "--zone", "Trips",
                                                        "--owner", "alice"]))
                steps.append(Self.check("share delete", ["share", "delete", "--zone", "Trips"]))
            }
            if path == ["token", "create"], let id = try? result.json()["id"]?.stringValue {
                steps.append(Self.check("token revoke", ["token", "revoke", id]))
            }
        }

        // serve prints its line, then serves; login stores a token for its URL.
        let token = try cli.run(["--json", "token", "create"]).json()["token"]?.stringValue ?? ""
        let out = home.file("serve.out")
        let server = BackgroundProcess(cli, ["--json", "serve", "--listen", "127.0.0.1:0"], device: "server",
                                       stdout: out, stderr: home.file("serve.err"))
        if BackgroundProcess.waitForText("\n", in: out, seconds: 30), let shape = shapes[["serve"]] {
            let line = BackgroundProcess.read(out)
            checked.insert(["serve"])
            for problem in Self.problems(line, shape) { Issue.record("cloudsync serve: \(problem)") }
            let url = (try? JSONValue.parse(line))?["url"]?.stringValue ?? ""
            let client = TemporaryDirectory("json-output-client")
            let login = BinaryRunner(home: client.path).run(["--json", "login", url], stdin: token + "\n")
            #expect(login.status == 0, "\(login.stderr)")
            checked.insert(["login"])
            if let loginShape = shapes[["login"]] {
                for problem in Self.problems(login.stdout, loginShape) { Issue.record("cloudsync login: \(problem)") }
            }
        } else {
            Issue.record("serve did not start: \(BackgroundProcess.read(home.file("serve.err")))")
        }
        kill(server.pid, SIGTERM)
        _ = server.wait(seconds: 20)

        let unchecked = Set(shapes.keys).subtracting(checked).map { $0.joined(separator: " ") }.sorted()
        #expect(unchecked.isEmpty, "documented shapes no step checks: \(unchecked)")
    }

    /// The rule for deletes (ARCHITECTURE, "JSON shapes"): every delete, remove and revoke prints
    /// its family's list wrapper with `deleted: true` on each item. `share remove` changes a share
    /// (it prints the share, as Apple replies with the saved share record).
    static let deletesThatAreChanges: Set<[String]> = [["share", "remove"]]

    @Test func everyDeleteDocumentsTheListWrapperWithDeletedItems() throws {
        let pages = try HelpExamplesTests.pages()
        let byPath = Dictionary(pages.map { ($0.path, $0.json) }, uniquingKeysWith: { first, _ in first })
        var deletes: [[String]] = []
        for page in pages where ["delete", "remove", "revoke", "leave"].contains(page.path.last ?? "")
            && (page.json["subcommands"]?.arrayValue ?? []).isEmpty && !Self.deletesThatAreChanges.contains(page.path) {
            deletes.append(page.path)
            let name = page.path.joined(separator: " ")
            let keys = page.json["jsonOutput"]?["keys"]?.arrayValue ?? []
            let lists = keys.filter { ($0["help"]?.stringValue ?? "").contains("deleted: true") }
            #expect(lists.count == 1, "\(name): one list of deleted items, each with deleted: true: \(keys)")
            guard let listKey = lists.first?["name"]?.stringValue else { continue }
            // The same wrapper as the family's list command, where it has one.
            let family = Array(page.path.dropLast())
            for sibling in ["list", "get", "inbox"] {
                guard let siblingKeys = byPath[family + [sibling]]?["jsonOutput"]?["keys"]?.arrayValue else { continue }
                let names = siblingKeys.compactMap { $0["name"]?.stringValue }
                #expect(names.contains(listKey), "\(name) prints '\(listKey)', \((family + [sibling]).joined(separator: " ")) prints \(names)")
                break
            }
        }
        #expect(deletes.count == 11, "the walk found the deletes: \(deletes)")
    }

    @Test func theCheckCatchesMissingAndUndocumentedKeys() throws {
        let shape = try JSONValue.parse(#"{"form":"document","summary":"","keys":[{"name":"a","help":"","optional":false},{"name":"b","help":"","optional":true}]}"#)
        #expect(Self.problems(#"{"a":1,"b":2}"#, shape).isEmpty)
        #expect(Self.problems(#"{"a":1}"#, shape).isEmpty)
        #expect(Self.problems(#"{"b":1}"#, shape) == ["the document: documented key 'a' missing"])
        #expect(Self.problems(#"{"a":1,"c":2}"#, shape) == ["the document: undocumented key 'c'"])
        #expect(Self.problems("plain text\n", shape).count == 1)
    }
}
