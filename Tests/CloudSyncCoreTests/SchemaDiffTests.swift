import CloudSyncCore
import Testing

/// What changes between two schemas, and whether development may be deployed to production.
@Suite("Schema diff and deploy check")
struct SchemaDiffTests {
    func schema(_ body: String) throws -> CloudSchema { try SchemaParser.parse("DEFINE SCHEMA\n" + body) }

    @Test func identicalSchemasHaveNoDifferences() throws {
        let s = try SchemaParser.parse(SchemaFixtures.exported)
        let diff = SchemaDiff(from: s, to: s)
        #expect(diff.isEmpty)
        #expect(diff.summary == "no differences")
        #expect(SchemaDeployCheck(development: s, production: s).isAllowed)
    }

    @Test func everyKindOfChangeIsListedInAStableOrder() throws {
        let old = try schema("""
            CREATE ROLE Old;
            RECORD TYPE Gone (a STRING);
            RECORD TYPE Note (
                title STRING QUERYABLE SORTABLE, count INT64, dropped BYTES,
                GRANT READ TO "_world", GRANT WRITE TO "_creator");
            """)
        let new = try schema("""
            CREATE ROLE New;
            RECORD TYPE Note (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE SEARCHABLE, count DOUBLE, added LIST<STRING>,
                GRANT READ TO "_world", GRANT CREATE TO "_icloud");
            RECORD TYPE Fresh (b INT64 QUERYABLE, GRANT READ TO New);
            """)
        let diff = SchemaDiff(from: old, to: new)
        #expect(diff.summary == """
            + role New
            - role Old
            + record type Fresh
            + field Fresh.b INT64
            + index Fresh.b QUERYABLE
            + grant READ on Fresh to New
            - record type Gone
            + index Note.___recordID QUERYABLE
            + field Note.added LIST<STRING>
            ~ field Note.count INT64 -> DOUBLE
            - field Note.dropped BYTES
            + index Note.title SEARCHABLE
            - index Note.title SORTABLE
            - grant WRITE on Note to _creator
            + grant CREATE on Note to _icloud
            """)
    }

    @Test func deployingAdditionsIsAllowed() throws {
        let production = try schema("RECORD TYPE Note (title STRING);")
        let development = try schema("""
            CREATE ROLE Staff;
            RECORD TYPE Note (title STRING QUERYABLE SEARCHABLE, body STRING, "___recordID" REFERENCE QUERYABLE,
                              GRANT READ TO Staff);
            RECORD TYPE Tag (name STRING);
            """)
        let check = SchemaDeployCheck(development: development, production: production)
        #expect(check.isAllowed)
        #expect(check.report == nil)
        #expect(!check.diff.isEmpty)
    }

    @Test func deployListsEveryViolation() throws {
        let production = try schema("""
            RECORD TYPE Note (title STRING, count INT64, body STRING, tags LIST<STRING>);
            RECORD TYPE Attachment (file ASSET);
            RECORD TYPE Log (line STRING);
            """)
        let development = try schema("""
            RECORD TYPE Note (title STRING, count DOUBLE, tags STRING, extra BYTES);
            RECORD TYPE Log (line STRING QUERYABLE);
            """)
        let check = SchemaDeployCheck(development: development, production: production)
        #expect(!check.isAllowed)
        #expect(check.violations == [
            .recordTypeRemoved("Attachment"),
            .fieldRemoved(recordType: "Note", field: "body"),
            .fieldTypeChanged(recordType: "Note", field: "count", from: SchemaFieldType(.int64), to: SchemaFieldType(.double)),
            .fieldTypeChanged(recordType: "Note", field: "tags", from: SchemaFieldType(.string, isList: true),
                              to: SchemaFieldType(.string)),
        ])
        #expect(check.report == """
            record type Attachment exists in production and cannot be removed
            field Note.body exists in production and cannot be removed
            field Note.count is INT64 in production and cannot become DOUBLE
            field Note.tags is LIST<STRING> in production and cannot become STRING
            """)
    }

    @Test func droppingIndexesOrGrantsIsNotAViolation() throws {
        let production = try schema("RECORD TYPE Note (title STRING QUERYABLE, GRANT READ TO \"_world\", GRANT WRITE TO \"_creator\");")
        let development = try schema("RECORD TYPE Note (title STRING, GRANT WRITE TO \"_creator\");")
        let check = SchemaDeployCheck(development: development, production: production)
        #expect(check.isAllowed)
        #expect(check.widerGrants.isEmpty)
        #expect(check.diff.summary == "- index Note.title QUERYABLE\n- grant READ on Note to _world")
    }

    @Test func aGrantThatWidensWhoMayWriteProductionRecordsNeedsConsent() throws {
        // Production has CloudKit's defaults (_icloud creates, _creator writes); a new WRITE for
        // _icloud hands every existing record to every account.
        let production = try schema("RECORD TYPE Post (title STRING);")
        let widened = try schema("RECORD TYPE Post (title STRING, GRANT WRITE TO \"_icloud\");")
        let refused = SchemaDeployCheck(development: widened, production: production)
        #expect(!refused.isAllowed)
        #expect(refused.violations == [.grantWidened(recordType: "Post", role: .icloud, permission: .write)])
        #expect(refused.report?.contains("--allow-wider-grants") == true)
        let allowed = SchemaDeployCheck(development: widened, production: production, allowWiderGrants: true)
        #expect(allowed.isAllowed)
        #expect(allowed.widerGrants == refused.violations)
        // _creator's WRITE moved to _icloud, and a new CREATE for _world, are both wider.
        let declared = try schema("RECORD TYPE Post (title STRING, GRANT READ, WRITE TO \"_creator\");")
        let moved = try schema("RECORD TYPE Post (title STRING, GRANT READ TO \"_creator\", GRANT WRITE TO \"_icloud\", GRANT CREATE TO \"_world\");")
        #expect(SchemaDeployCheck(development: moved, production: declared).violations == [
            .grantWidened(recordType: "Post", role: .icloud, permission: .write),
            .grantWidened(recordType: "Post", role: .world, permission: .create),
        ])
        // Dropping every grant falls back to the defaults, where _icloud creates: wider too.
        #expect(SchemaDeployCheck(development: production, production: declared).violations == [
            .grantWidened(recordType: "Post", role: .icloud, permission: .create),
        ])
        // A type production does not have yet holds no production record: any grant is additive.
        let newType = try schema("RECORD TYPE Post (title STRING); RECORD TYPE Wall (text STRING, GRANT WRITE TO \"_icloud\");")
        #expect(SchemaDeployCheck(development: newType, production: production).isAllowed)
        // Narrowing is never a widening.
        #expect(SchemaDeployCheck(development: declared, production: widened).widerGrants.isEmpty)
    }

    @Test func settlingANumberIsAllowedButChangingASettledOneIsNot() throws {
        let number = try schema("RECORD TYPE M (n NUMBER);")
        let asInt = try schema("RECORD TYPE M (n NUMBER PREFERRED AS INT64);")
        let asDouble = try schema("RECORD TYPE M (n NUMBER PREFERRED AS DOUBLE);")
        #expect(SchemaDeployCheck(development: asInt, production: number).isAllowed)
        #expect(!SchemaDeployCheck(development: asDouble, production: asInt).isAllowed)
        #expect(!SchemaDeployCheck(development: number, production: asInt).isAllowed)
    }

    @Test func systemFieldsAreNeverRemoved() throws {
        let production = try schema("RECORD TYPE Note (\"___createTime\" TIMESTAMP SORTABLE, title STRING);")
        let development = try schema("RECORD TYPE Note (title STRING);")
        let check = SchemaDeployCheck(development: development, production: production)
        #expect(check.isAllowed)
        #expect(check.diff.summary == "- index Note.___createTime SORTABLE")
    }
}
