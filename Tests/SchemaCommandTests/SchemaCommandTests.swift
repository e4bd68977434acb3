import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("cloudsync schema (end to end)")
struct SchemaCommandTests {
    let home = TemporaryDirectory("schema-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }
    var prod: [String] { ["--environment", "production"] }

    static let notes = """
        DEFINE SCHEMA
            RECORD TYPE Note (
                "___recordID" REFERENCE QUERYABLE,
                title  STRING QUERYABLE SORTABLE,
                body   STRING SEARCHABLE,
                count  INT64,
                tags   LIST<STRING> QUERYABLE
            );
        """

    @discardableResult
    func ok(_ arguments: [String], stdin: String = "") -> ProcessResult {
        let result = cli.run(arguments, stdin: stdin)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result
    }

    @Test func exportImportExportIsByteIdentical() throws {
        let file = home.write("large.ckdb", LargeSchemaText.recipeApp)
        ok(["schema", "import", file])
        let first = ok(["schema", "export"]).stdout
        #expect(first.contains("RECORD TYPE ShoppingList"))
        #expect(first.contains("CREATE ROLE Moderator"))
        let exported = home.write("exported.ckdb", first)
        #expect(ok(["schema", "diff", exported]).stdout == "no differences\n")
        #expect(ok(["schema", "import", exported]).stdout == "no differences\n")
        #expect(ok(["schema", "export"]).stdout == first)
        let out = home.path + "/out.ckdb"
        ok(["schema", "export", "--output", out])
        #expect(ok(["schema", "validate", out]).stdout.contains("valid (12 record types, 2 roles)"))
        let json = try ok(["schema", "export", "--json"]).json()
        #expect(json["schema"]?.stringValue == first)
    }

    /// A cloud refused schema administration (here the fault injector of `CLOUDSYNC_FAULTS`
    /// wraps it) is not told to use an embedded or postgres: cloud instead: every backend, an
    /// http(s):// one included, offers the schema calls (issue 31). Either the command works or
    /// it says in one line that this cloud does not offer it (69).
    @Test func noBackendIsSentToAnother() {
        let result = cli.run(["schema", "export"], env: ["CLOUDSYNC_FAULTS": "zoneBusy@saveZones:1"])
        #expect(!result.stderr.contains("sqlite:") && !result.stderr.contains("postgres:"), "\(result.stderr)")
        if result.status != 0 {
            #expect(result.status == 69, "\(result.stderr)")
            #expect(result.stderr.contains("this cloud does not offer schema administration"), "\(result.stderr)")
        }
    }

    @Test func importShowsChangesAndDryRunChangesNothing() throws {
        let file = home.write("notes.ckdb", Self.notes)
        let dry = ok(["schema", "import", file, "--dry-run"]).stdout
        #expect(dry.contains("+ record type Note") && dry.contains("+ index Note.title QUERYABLE"))
        #expect(ok(["schema", "export"]).stdout == "DEFINE SCHEMA\n")
        let applied = try ok(["schema", "import", file, "--json"]).json()
        #expect(applied["applied"] == .bool(true))
        #expect(ok(["schema", "diff", file]).stdout == "no differences\n")
        let shown = ok(["schema", "show", "Note"]).stdout
        #expect(shown.contains("title") && shown.contains("QUERYABLE,SORTABLE"))
        #expect(cli.run(["schema", "show", "Nope"]).status == 3)
    }

    @Test func validateReportsFileLineColumn() {
        let bad = home.write("bad.ckdb", "DEFINE SCHEMA\n  RECORD TYPE A (\n    x STRNG\n  );\n")
        let result = cli.run(["schema", "validate", bad])
        #expect(result.status == 65)
        #expect(result.stderr.contains("bad.ckdb:3:7: "), "\(result.stderr)")
        let dup = home.write("dup.ckdb", "DEFINE SCHEMA RECORD TYPE A (x STRING, x INT64);")
        #expect(cli.run(["schema", "validate", dup]).status == 65)
        #expect(cli.run(["schema", "import", dup]).status == 65)
        #expect(cli.run(["schema", "validate", home.path + "/missing.ckdb"]).status == 3)
    }

    /// Issue 25, item 10: bytes that are not UTF-8 are named at their line and column too.
    @Test func aFileThatIsNotUTF8IsRefusedAtItsFirstBadByte() {
        let path = home.file("latin1.ckdb")
        let bytes = Array("DEFINE SCHEMA\n  RECORD TYPE Caf".utf8) + [0xE9] + Array(" (x STRING);\n".utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        for command in [["schema", "validate", path], ["schema", "import", path]] {
            let result = cli.run(command)
            #expect(result.status == 65)
            #expect(result.stderr.contains("latin1.ckdb:2:18: not UTF-8 text: byte 0xE9 does not begin a valid UTF-8 character"),
                    "\(result.stderr)")
        }
    }

    @Test func importAndResetAreRefusedInProduction() {
        let file = home.write("notes.ckdb", Self.notes)
        #expect(cli.run(prod + ["schema", "import", file]).status == 64)
        #expect(cli.run(prod + ["schema", "reset", "--yes"]).status == 64)
        #expect(cli.run(["schema", "reset"]).status == 64, "reset needs --yes")
        #expect(cli.run(["--environment", "staging", "schema", "export"]).status == 64)
    }

    @Test func environmentsHoldSeparateData() throws {
        ok(["record", "save", "Note", "n1", "--field", "title=dev"])
        #expect(cli.run(prod + ["record", "get", "n1"]).status == 3)
        let viaEnv = cli.run(["record", "get", "n1"], env: ["CLOUDSYNC_ENVIRONMENT": "production"])
        #expect(viaEnv.status == 3)
        // The device keeps a local store per environment too.
        ok(["store", "put", "Task", "t1", "--field", "title=dev"])
        #expect(cli.run(prod + ["store", "get", "t1"]).status == 3)
        ok(["store", "get", "t1"])
    }

    @Test func productionRefusesWhatTheSchemaLacks() throws {
        let file = home.write("notes.ckdb", Self.notes)
        ok(["schema", "import", file])
        ok(["schema", "deploy"])
        // Unknown type, unknown field, wrong type.
        let type = cli.run(prod + ["record", "save", "Photo", "p1", "--field", "t=x"])
        #expect(type.status == 65 && type.stderr.contains("Photo"))
        let field = cli.run(prod + ["record", "save", "Note", "n1", "--field", "color=red"])
        #expect(field.status == 65 && field.stderr.contains("'color' of Note"))
        let wrong = cli.run(prod + ["record", "save", "Note", "n1", "--field", "count=lots"])
        #expect(wrong.status == 65 && wrong.stderr.contains("'count' of Note"), "\(wrong.stderr)")
        ok(prod + ["record", "save", "Note", "n1", "--field", "title=hello", "--field", "count:int64=2"])
        ok(prod + ["record", "save", "Note", "n2", "--field", "title=world", "--field", "count:int64=5"])
        // Indexed filters and sorts work; unindexed ones name the index to add.
        let found = try ok(prod + ["record", "query", "Note", "--where", "title == %@", "--arg", "hello", "--json"]).json()
        #expect(found["records"]?.arrayValue?.count == 1)
        ok(prod + ["record", "query", "Note", "--sort", "-title"])
        let filter = cli.run(prod + ["record", "query", "Note", "--where", "count == 2"])
        #expect(filter.status == 65 && filter.stderr.contains("'count QUERYABLE'"), "\(filter.stderr)")
        let sort = cli.run(prod + ["record", "query", "Note", "--sort", "count"])
        #expect(sort.status == 65 && sort.stderr.contains("'count SORTABLE'"))
        ok(prod + ["record", "query", "Note", "--where", "recordName == %@", "--arg", "n1"])
        // Development has no such rules.
        ok(["record", "query", "Note", "--where", "count == 2"])
        ok(["record", "save", "Note", "d1", "--field", "color=red"])
    }

    @Test func recordNameQueriesNeedRecordIDQueryable() throws {
        let file = home.write("n.ckdb", "DEFINE SCHEMA RECORD TYPE Note (title STRING QUERYABLE);")
        ok(["schema", "import", file])
        ok(["schema", "deploy"])
        let refused = cli.run(prod + ["record", "query", "Note", "--where", "recordName == %@", "--arg", "n1"])
        #expect(refused.status == 65 && refused.stderr.contains("___recordID QUERYABLE"), "\(refused.stderr)")
    }

    @Test func deployWithARemovedFieldIsRefusedAndChangesNothing() throws {
        let file = home.write("notes.ckdb", Self.notes)
        ok(["schema", "import", file])
        ok(["schema", "deploy"])
        let production = ok(prod + ["schema", "export"]).stdout
        let smaller = home.write("smaller.ckdb", """
            DEFINE SCHEMA
                RECORD TYPE Note (title STRING QUERYABLE SORTABLE, count DOUBLE);
                RECORD TYPE Extra (x STRING);
            """)
        ok(["schema", "import", smaller])
        for arguments in [["schema", "deploy"], ["schema", "deploy", "--dry-run"]] {
            let refused = cli.run(arguments)
            #expect(refused.status == 65)
            #expect(refused.stderr.contains("Note.body") && refused.stderr.contains("Note.tags")
                    && refused.stderr.contains("Note.count"), "\(refused.stderr)")
        }
        #expect(ok(prod + ["schema", "export"]).stdout == production)
        // An additive change deploys; a dry run leaves production alone.
        ok(["schema", "import", file])
        let added = home.write("added.ckdb", """
            DEFINE SCHEMA
                RECORD TYPE Note (
                    "___recordID" REFERENCE QUERYABLE,
                    title  STRING QUERYABLE SORTABLE,
                    body   STRING SEARCHABLE,
                    count  INT64 SORTABLE,
                    extra  STRING,
                    tags   LIST<STRING> QUERYABLE
                );
            """)
        ok(["schema", "import", added])
        #expect(ok(["schema", "deploy", "--dry-run"]).stdout.contains("+ field Note.extra STRING"))
        #expect(ok(prod + ["schema", "export"]).stdout == production)
        ok(["schema", "deploy"])
        #expect(ok(prod + ["schema", "export"]).stdout.contains("extra"))
    }

    @Test func resetDeletesDevelopmentSchemaAndData() throws {
        ok(["record", "save", "Note", "n1", "--field", "title=x"])
        ok(["schema", "deploy"])
        ok(["schema", "reset", "--yes"])
        #expect(cli.run(["record", "get", "n1"]).status == 3)
        #expect(ok(["schema", "export"]).stdout == "DEFINE SCHEMA\n")
        #expect(ok(prod + ["schema", "export"]).stdout.contains("Note"), "production is untouched")
    }

    @Test func initDerivesTypesFromTheLocalStore() throws {
        ok(["store", "put", "Task", "t1", "--field", "title=Buy", "--field", "done:int64=0"])
        let derived = ok(["schema", "init"]).stdout
        #expect(derived.contains("+ record type Task") && derived.contains("+ field Task.done INT64"), "\(derived)")
        #expect(ok(["schema", "show", "Task"]).stdout.contains("done"))
    }

    @Test func grantsRuleThePublicDatabase() throws {
        let file = home.write("grants.ckdb", """
            DEFINE SCHEMA
                RECORD TYPE Announcement (text STRING, GRANT READ TO "_world");
                RECORD TYPE Post (text STRING, GRANT READ TO "_world", GRANT CREATE TO "_icloud", GRANT WRITE TO "_creator");
                RECORD TYPE Secret (text STRING, GRANT READ, WRITE TO "_creator", GRANT CREATE TO "_icloud");
                RECORD TYPE Wiki (text STRING, GRANT READ, CREATE, WRITE TO "_icloud");
            """)
        ok(["schema", "import", file])
        let pub = ["--database", "public"]
        // An operator-only type cannot be created from a device.
        let operatorOnly = cli.run(["record", "save", "Announcement", "a1", "--field", "text=hi"] + pub)
        #expect(operatorOnly.status == 77 && operatorOnly.stderr.contains("CREATE"), "\(operatorOnly.stderr)")
        // _creator WRITE: only the creator changes or deletes.
        ok(["record", "save", "Post", "p1", "--field", "text=mine"] + pub)
        let bob = ["--account", "bob"]
        #expect(cli.run(bob + ["record", "save", "Post", "p1", "--field", "text=bob", "--policy", "all-keys"] + pub).status == 77)
        #expect(cli.run(bob + ["record", "delete", "p1"] + pub).status == 77)
        // _icloud WRITE: any account changes it.
        ok(["record", "save", "Wiki", "w1", "--field", "text=v1"] + pub)
        ok(bob + ["record", "save", "Wiki", "w1", "--field", "text=v2", "--policy", "all-keys"] + pub)
        // READ hides: bob neither gets nor finds the creator's secret.
        ok(["record", "save", "Secret", "s1", "--field", "text=psst"] + pub)
        #expect(cli.run(bob + ["record", "get", "s1"] + pub).status == 77)
        let bobs = try ok(bob + ["record", "query", "Secret", "--json"] + pub).json()
        #expect(bobs["records"]?.arrayValue?.count == 0)
        let mine = try ok(["record", "query", "Secret", "--json"] + pub).json()
        #expect(mine["records"]?.arrayValue?.count == 1)
    }

    @Test func withoutGrantsThePublicDatabaseKeepsTodaysRules() {
        let pub = ["--database", "public"]
        ok(["record", "save", "Free", "f1", "--field", "text=a"] + pub)
        ok(["--account", "bob", "record", "get", "f1"] + pub)
        #expect(cli.run(["--account", "bob", "record", "save", "Free", "f1", "--field", "text=b", "--policy", "all-keys"] + pub).status == 77)
    }
}
