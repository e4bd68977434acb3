import CloudSyncCore
import CloudSyncPostgres
import CloudSyncSQLite
import TestSupport
import Testing

/// `cloudsync cloud check` through the built binary, on both backends: a sound cloud passes,
/// an orphan record or a counter behind its records is reported with exit 1.
@Suite("cloudsync cloud check (end to end)")
struct CloudCheckCommandTests {
    /// Fills a cloud through the binary: a zone, two records, a key.
    func fill(_ cli: BinaryRunner) {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "n1", "--zone", "Notes"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "n2", "--zone", "Notes"]).status == 0)
        #expect(cli.run(["kv", "set", "k", "v"]).status == 0)
        #expect(cli.run(["kv", "sync"]).status == 0)
    }

    func expectSound(_ cli: BinaryRunner, format: String) throws {
        let result = cli.run(["--json", "cloud", "check"])
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        let json = try result.json()
        #expect(json["format"] == .string(format))
        #expect(json["counts"]?["records"] == .int(2))
        #expect(json["counts"]?["kv_values"] == .int(1))
        #expect(json["problems"] == .array([]))
    }

    func expectProblems(_ cli: BinaryRunner) {
        let result = cli.run(["cloud", "check"])
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("problem: 1 records outside a live zone (orphans)"), "\(result.stdout)")
        #expect(result.stdout.contains("problem: 1 zones whose counter is below their highest record sequence"), "\(result.stdout)")
    }

    static let orphanAndAheadSQL = [
        """
        INSERT INTO records(db_id, zone_id, name, type, seq, created_ms, created_user, created_device,
            modified_ms, modified_user, modified_device) VALUES (1, 999, 'orphan', 'Note', 1, 0, '', '', 0, '', '')
        """,
        "UPDATE records SET seq = seq + 100 WHERE name = 'n2'",
    ]

    @Test func theEmbeddedCloudIsCheckedAndItsDamageReported() throws {
        let home = TemporaryDirectory("cloud-check")
        let cli = BinaryRunner(home: home.path)
        #expect(cli.run(["cloud", "check"]).status == 3, "no cloud yet: not found, and none is created")
        fill(cli)
        try expectSound(cli, format: "cloudsync-cloud")
        let db = try Connection(path: home.file("cloud.sqlite"))
        for sql in Self.orphanAndAheadSQL { try db.execute(sql) }
        expectProblems(cli)
    }

    @Test func aPostgreSQLCloudIsCheckedAndItsDamageReported() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        fill(cli)
        try expectSound(cli, format: "cloudsync-cloud-postgres")
        let url = try PostgresURL(cloud.url)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \(url.schema ?? "public")")
        for sql in Self.orphanAndAheadSQL { try connection.execute(sql) }
        expectProblems(cli)
    }

    /// The tables are versioned: a cloud written by a newer cloudsync is refused (69), untouched.
    @Test func aPostgreSQLCloudOfANewerFormatIsRefused() throws {
        let cloud = try PostgresTestCloud()
        #expect(cloud.cli.run(["zone", "create", "Notes"]).status == 0)
        let url = try PostgresURL(cloud.url)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \(url.schema ?? "public"); UPDATE meta SET value = '99' WHERE key = 'version'")
        let refused = cloud.cli.run(["zone", "list"])
        #expect(refused.status == 69, "\(refused.stderr)")
        #expect(refused.stderr.contains("format version 99, newer than this cloudsync reads"), "\(refused.stderr)")
        #expect(try connection.query("SELECT value FROM meta WHERE key = 'version'").first?[0].text == "99", "untouched")
    }

    /// A cloud of an older version is upgraded in place on first use, keeping its epoch and data.
    @Test func aPostgreSQLCloudOfAnOlderFormatIsUpgradedKeepingItsData() throws {
        let cloud = try PostgresTestCloud()
        fill(cloud.cli)
        let url = try PostgresURL(cloud.url)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \(url.schema ?? "public"); DROP TABLE declared_schemas, credentials, shares, share_participants, shared_zones, container_admins, used_signatures, account_usage, user_profiles; UPDATE meta SET value = '1' WHERE key = 'version'")
        let epoch = try connection.query("SELECT value FROM meta WHERE key = 'epoch'").first?[0].text
        let check = cloud.cli.run(["--json", "cloud", "check"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(try check.json()["version"] == .int(7))
        #expect(try check.json()["counts"]?["records"] == .int(2))
        #expect(try connection.query("SELECT value FROM meta WHERE key = 'epoch'").first?[0].text == epoch)
    }
}
