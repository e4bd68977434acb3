import CloudSyncCore
import TestSupport
import Testing

/// `cloudsync schema` against a `cloudsync serve`: the schema extension endpoints and the
/// environment of each request travel over HTTP.
@Suite("cloudsync schema through serve (end to end)")
struct ServeSchemaTests {
    static let smaller = """
        DEFINE SCHEMA
            RECORD TYPE Note (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE SORTABLE
            );
        """
    static let notes = """
        DEFINE SCHEMA
            RECORD TYPE Note (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE SORTABLE,
                count INT64
            );
        """

    @Test func importExportDeployAndProductionDataThroughTheServer() throws {
        let fixture = try ServeFixture(admin: true)
        let (home, a) = fixture.client("a")
        let file = home.write("notes.ckdb", Self.notes)
        let dry = a.run(["schema", "import", file, "--dry-run", "--json"], device: "a")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.stdout.contains("record type Note"), "\(dry.stdout)")
        #expect(a.run(["schema", "export"], device: "a").stdout.contains("Note") == false)
        let imported = a.run(["schema", "import", file], device: "a")
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = a.run(["schema", "export"], device: "a")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(Self.declaresTitle(exported.stdout), "\(exported.stdout)")
        // Production is empty until deployed, and refuses the type.
        #expect(!a.run(["schema", "export", "--environment", "production"], device: "a").stdout.contains("Note"))
        let refused = a.run(["--environment", "production", "record", "save", "Note", "p1", "--field", "title=prod"], device: "a")
        #expect(refused.status != 0)
        let deployed = a.run(["schema", "deploy"], device: "a")
        #expect(deployed.status == 0, "\(deployed.stderr)")
        let production = a.run(["schema", "export", "--environment", "production"], device: "a")
        #expect(Self.declaresTitle(production.stdout), "\(production.stdout)")
        let saved = a.run(["--environment", "production", "record", "save", "Note", "p1", "--field", "title=prod"], device: "a")
        #expect(saved.status == 0, "\(saved.stderr)")
        // The production record is not in development.
        let dev = a.run(["record", "query", "Note", "--json"], device: "a")
        #expect(dev.status == 0, "\(dev.stderr)")
        #expect(!dev.stdout.contains("prod"), "\(dev.stdout)")
        // Removing a field cannot deploy: conflict-style failure, production unchanged.
        let smaller = home.write("smaller.ckdb", Self.smaller)
        #expect(a.run(["schema", "import", smaller], device: "a").status == 0)
        let blocked = a.run(["schema", "deploy"], device: "a")
        #expect(blocked.status != 0 && blocked.status != 69, "\(blocked.status) \(blocked.stderr)")
        #expect(blocked.stderr.contains("Note.count"), "\(blocked.stderr)")
        #expect(fixture.stop() == 0)
        #expect(fixture.log.contains("schema/import alice 200"), "\(fixture.log)")
        #expect(fixture.log.contains("/production/"), "\(fixture.log)")
    }

    /// Whether exported text declares `title STRING QUERYABLE SORTABLE` (columns are aligned).
    static func declaresTitle(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            line.split(separator: " ").map { $0.trimmingSuffix(",") } == ["title", "STRING", "QUERYABLE", "SORTABLE"]
        }
    }

    @Test func schemaCallsNeedAValidToken() throws {
        let fixture = try ServeFixture()
        let (_, wrong) = fixture.client("wrong", token: "cst_not-a-token")
        #expect(wrong.run(["schema", "export"], device: "x").status == 77)
        #expect(fixture.stop() == 0)
    }
}

extension Substring {
    func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : String(self) }
}
