import CloudSyncCore
import TestSupport
import Testing

/// The administrator role through `cloudsync serve` and on the embedded cloud (issue 25, item 1):
/// an account that shares nothing with another cannot reset, import or widen the schema that
/// guards the other's data.
@Suite("cloudsync admin and the schema's administrators (end to end)")
struct ServeAdminTests {
    static let posts = """
        DEFINE SCHEMA
            RECORD TYPE Post (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE
            );
        """
    static let widened = """
        DEFINE SCHEMA
            RECORD TYPE Post (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE,
                GRANT WRITE TO "_icloud"
            );
        """

    func token(_ fixture: ServeFixture, _ account: String, admin: Bool = false) -> String {
        trimmed(fixture.server.run(["token", "create", "--account", account, "--cloud", fixture.cloud] + (admin ? ["--admin"] : [])).stdout)
    }

    @Test func anotherAccountCannotResetImportOrDeployThroughTheServer() throws {
        let fixture = try ServeFixture()
        let (home, alice) = fixture.client("alice")
        #expect(alice.run(["record", "save", "Note", "n1", "--field", "title=mine"], device: "a").status == 0)
        let carolToken = token(fixture, "carol")
        let (_, carol) = fixture.client("carol", token: carolToken)
        // The repro, as a stdlib client would send it: 403 ACCESS_DENIED, nothing reset.
        let raw = ProcessSpawner.run("/usr/bin/curl", ["-s", "-XPOST", "-H", "Authorization: Bearer \(carolToken)",
                                                     fixture.url + "/database/1/iCloud.com.example.App/development/private/schema/reset",
                                                     "-d", "{}", "-w", "\n%{http_code}"], environment: [:])
        #expect(raw.stdout.hasSuffix("\n403"), "\(raw.stdout)")
        #expect(raw.stdout.contains("\"ACCESS_DENIED\""), "\(raw.stdout)")
        let reset = carol.run(["--account", "carol", "schema", "reset", "--yes"], device: "c")
        #expect(reset.status == 77, "\(reset.status) \(reset.stderr)")
        #expect(reset.stderr.contains("needs an administrator"), "\(reset.stderr)")
        let file = home.write("wide.ckdb", Self.widened)
        #expect(carol.run(["--account", "carol", "schema", "import", file], device: "c").status == 77)
        #expect(carol.run(["--account", "carol", "schema", "deploy"], device: "c").status == 77)
        // Alice's development data is still there; she is no administrator either (no claim through serve).
        let read = alice.run(["record", "get", "n1", "--json"], device: "a")
        #expect(read.status == 0 && read.stdout.contains("mine"), "\(read.stderr)")
        #expect(alice.run(["schema", "reset", "--yes"], device: "a").status == 77)
        // An administrator token may; the role shows in token list.
        let (_, ops) = fixture.client("ops", token: token(fixture, "ops", admin: true))
        let posts = home.write("posts.ckdb", Self.posts)
        #expect(ops.run(["--account", "ops", "schema", "import", posts], device: "o").status == 0)
        #expect(ops.run(["--account", "ops", "schema", "deploy"], device: "o").status == 0)
        // A grant that hands production posts to every account needs --allow-wider-grants.
        #expect(ops.run(["--account", "ops", "schema", "import", file], device: "o").status == 0)
        let refused = ops.run(["--account", "ops", "schema", "deploy"], device: "o")
        #expect(refused.status == 65, "\(refused.status) \(refused.stderr)")
        #expect(refused.stderr.contains("grant WRITE on Post to _icloud widens"), "\(refused.stderr)")
        let dry = ops.run(["--account", "ops", "schema", "deploy", "--dry-run", "--allow-wider-grants", "--json"], device: "o")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(try dry.json()["widerGrants"]?.arrayValue?.count == 1, "\(dry.stdout)")
        #expect(ops.run(["--account", "ops", "schema", "deploy", "--allow-wider-grants"], device: "o").status == 0)
        // On the server's store, the container (claimed by no one through serve) gets its first
        // administrator; then carol, named by it, administers through the server without the role.
        #expect(fixture.server.run(["--account", "dana", "admin", "add", "dana", "--cloud", fixture.cloud]).status == 0)
        #expect(fixture.server.run(["--account", "ops", "admin", "add", "carol", "--cloud", fixture.cloud]).status == 77)
        #expect(fixture.server.run(["--account", "dana", "admin", "add", "carol", "--cloud", fixture.cloud]).status == 0)
        #expect(carol.run(["--account", "carol", "schema", "import", posts], device: "c").status == 0)
        let roles = fixture.server.run(["token", "list", "--json", "--cloud", fixture.cloud])
        let listed = try #require(try roles.json()["tokens"]?.arrayValue)
        #expect(listed.contains { $0["account"] == .string("ops") && $0["role"] == .string("admin") }, "\(roles.stdout)")
        #expect(listed.contains { $0["account"] == .string("carol") && $0["role"] == .string("user") }, "\(roles.stdout)")
        #expect(fixture.stop() == 0)
    }

    @Test func theFirstAccountToSetUpTheSchemaAdministersAnEmbeddedCloud() throws {
        let home = TemporaryDirectory("admin-embedded")
        let runner = BinaryRunner(home: home.path)
        let posts = home.write("posts.ckdb", Self.posts)
        #expect(runner.run(["--account", "alice", "admin", "list"]).stderr.contains("no administrator yet"))
        #expect(runner.run(["--account", "alice", "schema", "import", posts]).status == 0)
        #expect(runner.run(["--account", "alice", "admin", "list"]).stdout == "alice\n")
        // bob shares the file but not the container's administration.
        let bob = runner.run(["--account", "bob", "schema", "reset", "--yes"])
        #expect(bob.status == 77, "\(bob.stderr)")
        #expect(runner.run(["--account", "bob", "admin", "add", "bob"]).status == 77)
        #expect(runner.run(["--account", "alice", "admin", "add", "bob"]).status == 0)
        #expect(runner.run(["--account", "bob", "schema", "deploy"]).status == 0)
        #expect(runner.run(["--account", "bob", "admin", "remove", "alice"]).status == 0)
        let last = runner.run(["--account", "bob", "admin", "remove", "bob"])
        #expect(last.status == 65 || last.status == 64, "\(last.status) \(last.stderr)")
        #expect(last.stderr.contains("last administrator"), "\(last.stderr)")
        #expect(runner.run(["--account", "alice", "schema", "import", posts]).status == 77)
    }
}
