import CloudSyncCore
import Testing

/// The printer writes what `cktool export-schema` writes, deterministically, and reads back to
/// the same schema.
@Suite("Schema printer")
struct SchemaPrinterTests {
    /// parse(print(s)) == s, and print(parse(print(s))) is byte-identical to print(s).
    func roundTrips(_ schema: CloudSchema) throws -> String {
        let text = SchemaPrinter.print(schema)
        let again = try SchemaParser.parse(text)
        #expect(again == schema)
        #expect(SchemaPrinter.print(again) == text)
        return text
    }

    @Test func anExportedFilePrintsBackByteForByte() throws {
        let schema = try SchemaParser.parse(SchemaFixtures.exported)
        #expect(try roundTrips(schema) == SchemaFixtures.exported)
    }

    @Test func aHandWrittenFilePrintsInExportLayout() throws {
        let schema = try SchemaParser.parse(SchemaFixtures.handWritten)
        let text = try roundTrips(schema)
        #expect(text == """
            DEFINE SCHEMA

                CREATE ROLE DeptManager;

                RECORD TYPE Department (
                    "___createTime" TIMESTAMP QUERYABLE SORTABLE,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE QUERYABLE,
                    address         STRING,
                    employees       LIST<REFERENCE>,
                    name            STRING,
                    phone           LIST<STRING>,
                    GRANT READ, CREATE, WRITE TO DeptManager,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );

                RECORD TYPE Employee (
                    "___createTime" TIMESTAMP,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE QUERYABLE,
                    hiredate        TIMESTAMP,
                    name            STRING,
                    salary          INT64,
                    GRANT WRITE TO "_creator",
                    GRANT CREATE TO "_icloud",
                    GRANT READ TO "_world"
                );

            """)
    }

    @Test func encryptedNumberQuotedAndLongNamesPrintAsTheGrammarWritesThem() throws {
        let schema = try SchemaParser.parse(SchemaFixtures.coreData)
        let text = try roundTrips(schema)
        #expect(text.contains("\n        CD_amount          NUMBER PREFERRED AS DOUBLE QUERYABLE SORTABLE,\n"))
        #expect(text.contains("\n        CD_body            ENCRYPTED STRING,\n"))
        #expect(text.contains("\n        CD_location        ENCRYPTED LOCATION,\n"))
        #expect(text.contains("\n        CD_secretNumbers   LIST<ENCRYPTED INT64>,\n"))
        #expect(text.contains("\n    RECORD TYPE \"cloudkit.share\" (\n"))
        // Types in byte order: upper case, then quoted, then lower case.
        let order = ["CD_Entry", "Users", "\"cloudkit.share\""].map { text.firstRange(of: "RECORD TYPE \($0)")!.lowerBound }
        #expect(order == order.sorted())
    }

    @Test func namesThatAreNotPlainAreQuoted() throws {
        var type = RecordTypeSchema(name: "grant")
        type.setField(FieldSchema(name: "sortable", type: SchemaFieldType(.string)))
        type.setField(FieldSchema(name: "two words", type: SchemaFieldType(.int64), attributes: [.sortable, .queryable]))
        type.setField(FieldSchema(name: "plain_1", type: SchemaFieldType(.bytes)))
        type.grants = [SchemaRole("Ops Team"): [.write, .read]]
        let schema = CloudSchema(recordTypes: [type], roles: [SchemaRole("Ops Team")])
        let text = try roundTrips(schema)
        #expect(text.contains("CREATE ROLE \"Ops Team\";"))
        #expect(text.contains("RECORD TYPE \"grant\" ("))
        #expect(text.contains("\"sortable\"      STRING,"))
        #expect(text.contains("\"two words\"     INT64 QUERYABLE SORTABLE,"))
        #expect(text.contains("plain_1         BYTES,"))
        #expect(text.contains("GRANT READ, WRITE TO \"Ops Team\"\n"))
    }

    @Test func anEmptySchemaAndATypeWithoutGrants() throws {
        #expect(try roundTrips(CloudSchema()) == "DEFINE SCHEMA\n")
        let text = try roundTrips(CloudSchema(recordTypes: [RecordTypeSchema(name: "Bare")]))
        #expect(text.hasSuffix("    \"___recordID\"   REFERENCE\n    );\n"))
    }

    @Test func aLargeRealWorldStyleSchemaPrintsAndReparses() throws {
        let schema = try SchemaParser.parse(SchemaFixtures.large)
        let text = try roundTrips(schema)
        #expect(text.ranges(of: "RECORD TYPE ").count == 12)
        #expect(SchemaDiff(from: schema, to: try SchemaParser.parse(text)).summary == "no differences")
    }

    @Test func printingIsIndependentOfHowTheSchemaWasBuilt() throws {
        let a = try SchemaParser.parse("DEFINE SCHEMA RECORD TYPE B (y STRING, x INT64); RECORD TYPE A (z STRING, GRANT READ TO \"_world\", GRANT WRITE TO \"_creator\");")
        let b = try SchemaParser.parse("DEFINE SCHEMA RECORD TYPE A (GRANT WRITE TO \"_creator\", z STRING, GRANT READ TO \"_world\"); RECORD TYPE B (x INT64, y STRING);")
        #expect(a == b)
        #expect(SchemaPrinter.print(a) == SchemaPrinter.print(b))
    }
}
