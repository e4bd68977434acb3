import CloudSyncCore
import Testing

/// The CloudKit Schema Language grammar, feature by feature.
@Suite("Schema parser")
struct SchemaParserTests {
    func parse(_ text: String) throws -> CloudSchema { try SchemaParser.parse(text) }

    @Test func anEmptySchemaIsJustDefineSchema() throws {
        #expect(try parse("DEFINE SCHEMA") == CloudSchema())
        #expect(try parse("define schema\n") == CloudSchema())
    }

    @Test func anExportedFileParses() throws {
        let schema = try parse(SchemaFixtures.exported)
        #expect(schema.sortedRecordTypes.map(\.name) == ["Comment", "Place"])
        let place = try #require(schema.recordType(named: "Place"))
        #expect(place.field(named: "tags")?.type == SchemaFieldType(.string, isList: true))
        #expect(place.field(named: "tags")?.attributes == [.queryable, .searchable, .sortable])
        #expect(place.field(named: "photo")?.type == SchemaFieldType(.asset))
        #expect(place.field(named: "position")?.type == SchemaFieldType(.location))
        #expect(place.isQueryable("Kind") && !place.isSortable("Kind"))
        #expect(place.isQueryable("___recordID"))
        #expect(place.grants(for: .creator) == [.read, .write])
        #expect(place.grants(for: .icloud) == [.read, .create, .write])
        #expect(place.grants(for: .world) == [.read])
        let comment = try #require(schema.recordType(named: "Comment"))
        #expect(comment.isSearchable("body") && !comment.isQueryable("body"))
        #expect(comment.field(named: "___createTime")?.attributes == [.queryable, .sortable])
    }

    @Test func aHandWrittenFileWithRolesCommentsAndLowerCaseKeywordsParses() throws {
        let schema = try parse(SchemaFixtures.handWritten)
        #expect(schema.roles == [SchemaRole("DeptManager")])
        let department = try #require(schema.recordType(named: "Department"))
        #expect(department.grants(for: SchemaRole("DeptManager")) == [.read, .create, .write])
        #expect(department.field(named: "employees")?.type == SchemaFieldType(.reference, isList: true))
        #expect(department.field(named: "phone")?.type == SchemaFieldType(.string, isList: true))
        let employee = try #require(schema.recordType(named: "Employee"))
        #expect(employee.field(named: "salary")?.type == SchemaFieldType(.int64))
        #expect(employee.isQueryable("___recordID"))
        #expect(schema.grants(for: SchemaRole("DeptManager")).map(\.recordType) == ["Department"])
    }

    @Test func systemFieldsAreImplicitInEveryType() throws {
        let schema = try parse("DEFINE SCHEMA RECORD TYPE Note (title STRING);")
        let note = try #require(schema.recordType(named: "Note"))
        #expect(Set(note.fields.keys) == ["___createTime", "___createdBy", "___etag", "___modTime",
                                         "___modifiedBy", "___recordID", "title"])
        #expect(note.field(named: "___recordID")?.attributes == [])
        #expect(note.field(named: "___createdBy")?.isSystem == true)
        #expect(note.userFields.map(\.name) == ["title"])
        #expect(!note.isQueryable("___recordID"))
    }

    @Test func aCoreDataExportWithEncryptedNumberAndQuotedTypeNamesParses() throws {
        let schema = try parse(SchemaFixtures.coreData)
        #expect(schema.sortedRecordTypes.map(\.name) == ["CD_Entry", "Users", "cloudkit.share"])
        let entry = try #require(schema.recordType(named: "CD_Entry"))
        #expect(entry.field(named: "CD_body")?.type == SchemaFieldType(.encryptedString))
        #expect(entry.field(named: "CD_location")?.type == SchemaFieldType(.encryptedLocation))
        #expect(entry.field(named: "CD_secretNumbers")?.type == SchemaFieldType(.encryptedInt64, isList: true))
        #expect(entry.field(named: "CD_amount")?.type == SchemaFieldType(.numberAsDouble))
        #expect(entry.field(named: "CD_amount")?.attributes == [.queryable, .sortable])
        #expect(schema.field("roles", of: "Users")?.type == SchemaFieldType(.int64, isList: true))
    }

    @Test(arguments: [
        ("ASSET", SchemaFieldType(.asset)), ("BYTES", SchemaFieldType(.bytes)), ("DOUBLE", SchemaFieldType(.double)),
        ("INT64", SchemaFieldType(.int64)), ("LOCATION", SchemaFieldType(.location)),
        ("REFERENCE", SchemaFieldType(.reference)), ("STRING", SchemaFieldType(.string)),
        ("TIMESTAMP", SchemaFieldType(.timestamp)), ("NUMBER", SchemaFieldType(.number)),
        ("NUMBER PREFERRED AS INT64", SchemaFieldType(.numberAsInt64)),
        ("number preferred as double", SchemaFieldType(.numberAsDouble)),
        ("ENCRYPTED BYTES", SchemaFieldType(.encryptedBytes)), ("ENCRYPTED_BYTES", SchemaFieldType(.encryptedBytes)),
        ("ENCRYPTED DOUBLE", SchemaFieldType(.encryptedDouble)), ("ENCRYPTED_DOUBLE", SchemaFieldType(.encryptedDouble)),
        ("ENCRYPTED INT64", SchemaFieldType(.encryptedInt64)), ("ENCRYPTED_INT64", SchemaFieldType(.encryptedInt64)),
        ("ENCRYPTED STRING", SchemaFieldType(.encryptedString)), ("ENCRYPTED_STRING", SchemaFieldType(.encryptedString)),
        ("ENCRYPTED TIMESTAMP", SchemaFieldType(.encryptedTimestamp)),
        ("ENCRYPTED_TIMESTAMP", SchemaFieldType(.encryptedTimestamp)),
        ("ENCRYPTED LOCATION", SchemaFieldType(.encryptedLocation)),
        ("ENCRYPTED_LOCATION", SchemaFieldType(.encryptedLocation)),
        ("LIST<STRING>", SchemaFieldType(.string, isList: true)), ("list < asset >", SchemaFieldType(.asset, isList: true)),
        ("LIST<ENCRYPTED BYTES>", SchemaFieldType(.encryptedBytes, isList: true)),
        ("LIST<NUMBER PREFERRED AS INT64>", SchemaFieldType(.numberAsInt64, isList: true)),
    ])
    func everyFieldTypeParses(text: String, type: SchemaFieldType) throws {
        let schema = try parse("DEFINE SCHEMA RECORD TYPE T (f \(text));")
        #expect(schema.field("f", of: "T")?.type == type)
    }

    @Test func quotedNamesMayBeReservedWordsOrHoldOtherCharacters() throws {
        let schema = try parse("""
            DEFINE SCHEMA
            CREATE ROLE "grant";
            RECORD TYPE "Queryable" ("grant" STRING, "sortable" INT64 SORTABLE, "with space" STRING,
                                     type STRING, list STRING, schema STRING, GRANT READ TO "grant");
            """)
        let type = try #require(schema.recordType(named: "Queryable"))
        #expect(type.userFields.map(\.name) == ["grant", "list", "schema", "sortable", "type", "with space"])
        #expect(type.grants(for: SchemaRole("grant")) == [.read])
    }

    @Test func namesAreCaseSensitiveAndKeywordsAreNot() throws {
        let schema = try parse("Define Schema Record Type Note (title String Queryable, Title STRING);")
        #expect(schema.recordType(named: "Note")?.userFields.map(\.name) == ["Title", "title"])
        #expect(schema.recordType(named: "note") == nil)
    }

    @Test func separatorsAsCktoolAcceptsThem() throws {
        // `;` after every statement, or none after the last; stray `;`; a `,` before `)`; an empty type.
        let a = try parse("DEFINE SCHEMA RECORD TYPE A (x STRING); RECORD TYPE B (y STRING);")
        let b = try parse("DEFINE SCHEMA ;; RECORD TYPE A (x STRING,); RECORD TYPE B (y STRING)")
        #expect(a == b)
        #expect(try parse("DEFINE SCHEMA RECORD TYPE Empty ()").recordType(named: "Empty") == RecordTypeSchema(name: "Empty"))
    }

    @Test func commentsOfEveryFormAnywhere() throws {
        let text = """
            -- top
            DEFINE /* inline */ SCHEMA // trailing
            RECORD TYPE /* a */ Note ( -- fields
                title /* the title */ STRING /* indexed: */ QUERYABLE, // done
                /* multi
                   line */ body STRING
            ) -- end
            ; /* last */
            """
        let note = try #require(try parse(text).recordType(named: "Note"))
        #expect(note.isQueryable("title"))
        #expect(note.field(named: "body") != nil)
    }

    @Test func grantsMergeAndListEveryPermission() throws {
        let schema = try parse("""
            DEFINE SCHEMA RECORD TYPE T (
                GRANT READ TO "_world", GRANT CREATE, WRITE TO "_icloud", GRANT READ TO "_icloud",
                f STRING
            );
            """)
        let type = try #require(schema.recordType(named: "T"))
        #expect(type.grants == [.world: [.read], .icloud: [.read, .create, .write]])
        #expect(type.declaresGrants)
    }

    @Test func typesWithoutGrantsGetCloudKitsDefaults() throws {
        let schema = try parse("DEFINE SCHEMA RECORD TYPE Open (f STRING); RECORD TYPE Operator (f STRING, GRANT READ TO \"_world\");")
        let open = try #require(schema.recordType(named: "Open"))
        #expect(!open.declaresGrants)
        #expect(open.effectivePermissions(for: .world) == [.read])
        #expect(open.effectivePermissions(for: .icloud) == [.create])
        #expect(open.effectivePermissions(for: .creator) == [.write])
        let operatorOnly = try #require(schema.recordType(named: "Operator"))
        #expect(!operatorOnly.allows(.create, toAnyOf: [.world, .icloud, .creator]))
        #expect(operatorOnly.allows(.read, toAnyOf: [.world]))
    }

    @Test func implicitRolesMayBeWrittenWithoutQuotes() throws {
        let schema = try parse("DEFINE SCHEMA RECORD TYPE T (GRANT READ TO _world, GRANT WRITE TO \"_creator\");")
        #expect(schema.recordType(named: "T")?.grants == [.world: [.read], .creator: [.write]])
    }

    @Test func aRoleMayBeCreatedAfterItIsGranted() throws {
        let schema = try parse("DEFINE SCHEMA RECORD TYPE T (GRANT READ TO Staff); CREATE ROLE Staff;")
        #expect(schema.recordType(named: "T")?.grants(for: SchemaRole("Staff")) == [.read])
    }

    @Test func indexRulesFollowCloudKit() {
        let string = SchemaFieldType(.string)
        #expect(FieldAttribute.allCases.allSatisfy { string.allows($0) })
        #expect(FieldAttribute.allCases.allSatisfy { SchemaFieldType(.string, isList: true).allows($0) })
        for primitive in [SchemaPrimitiveType.asset, .bytes, .encryptedString, .encryptedInt64, .encryptedBytes] {
            #expect(FieldAttribute.allCases.allSatisfy { !SchemaFieldType(primitive).allows($0) })
            #expect(FieldAttribute.allCases.allSatisfy { !SchemaFieldType(primitive, isList: true).allows($0) })
        }
        for primitive in [SchemaPrimitiveType.int64, .double, .timestamp, .location, .numberAsInt64] {
            #expect(SchemaFieldType(primitive).allows(.queryable) && SchemaFieldType(primitive).allows(.sortable))
            #expect(!SchemaFieldType(primitive).allows(.searchable))
        }
        #expect(SchemaFieldType(.reference).allows(.queryable))
        #expect(!SchemaFieldType(.reference).allows(.sortable) && !SchemaFieldType(.reference).allows(.searchable))
    }

    @Test func schemaTypesMapToTheStoredFieldTypes() {
        #expect(SchemaFieldType(.asset).storedType == FieldTypeName(.asset))
        #expect(SchemaFieldType(.string, isList: true).storedType == FieldTypeName(.string, isList: true))
        #expect(SchemaFieldType(.numberAsInt64).storedType == FieldTypeName(.int64))
        #expect(SchemaFieldType(.encryptedTimestamp).storedType == FieldTypeName(.encryptedBytes))
        #expect(SchemaFieldType(.number).storedType == nil)
        #expect(SchemaFieldType(.number).accepts(FieldTypeName(.double)))
        #expect(SchemaFieldType(.number).accepts(FieldTypeName(.int64)))
        #expect(!SchemaFieldType(.number).accepts(FieldTypeName(.int64, isList: true)))
        #expect(!SchemaFieldType(.string).accepts(FieldTypeName(.int64)))
        #expect(SchemaFieldType(.location).accepts(FieldTypeName(.location)))
    }

    @Test func aLargeRealWorldStyleSchemaParses() throws {
        let schema = try parse(SchemaFixtures.large)
        #expect(schema.recordTypes.count == 12)
        #expect(schema.roles == [SchemaRole("Moderator"), SchemaRole("Editor")])
        let recipe = try #require(schema.recordType(named: "Recipe"))
        #expect(recipe.fields.count == 6 + 12)
        #expect(recipe.grants(for: SchemaRole("Editor")) == [.create])
        #expect(recipe.field(named: "gallery")?.type == SchemaFieldType(.asset, isList: true))
    }
}
