import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// Environments, the declared schema and its enforcement, on every backend.
@Suite("Schema and environments (conformance)")
struct SchemaConformanceTests {
    static let notes = """
        DEFINE SCHEMA
            RECORD TYPE Note (
                "___recordID" REFERENCE QUERYABLE,
                title STRING QUERYABLE SORTABLE,
                count INT64,
                GRANT READ, WRITE TO "_creator", GRANT CREATE TO "_icloud"
            );
        """

    /// The container's administrator: it holds the store on the direct backends (and claims the
    /// container first), and its token carries the administrator role through serve.
    let admin = Caller.holdingStore(HTTPTestServers.adminAccount)

    func schemaService(_ f: CloudFixture) throws -> any SchemaService {
        try #require(f.cloud.capabilities.schema)
    }

    func production(_ request: DatabaseRequest) -> DatabaseRequest {
        var request = request
        request.environment = .production
        return request
    }

    @Test(arguments: CloudBackend.allCases)
    func environmentsKeepSeparateDataAndKeyValues(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let dev = try f.request("alice")
        let prod = production(dev)
        try f.save([f.record("n1", zone: "_defaultZone", dev, fields: ["title": .string("dev")])], dev)
        #expect(try f.cloud.queryRecords(RecordQuery(recordType: "Note"), in: dev).records.count == 1)
        // Production has no schema yet: it knows no Note, so it refuses the query.
        #expect(cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Note"), in: prod) }?.code == .invalidArguments)
        _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "k", value: .string("dev"))], in: dev)
        #expect(try f.cloud.fetchKeyValueChanges(since: nil, in: prod).items.isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func importDeployAndResetKeepTheSchemaPerEnvironment(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let service = try schemaService(f)
        let schema = try SchemaParser.parse(Self.notes)
        let diff = try service.importSchema(schema, container: f.container, dryRun: false, by: admin)
        #expect(diff.changes.contains(.recordTypeAdded("Note")))
        #expect(try service.schema(container: f.container, environment: .development) == schema)
        #expect(try service.schema(container: f.container, environment: .production) == CloudSchema())
        #expect(try service.deploySchema(container: f.container, dryRun: false, allowWiderGrants: false, by: admin).isAllowed)
        // A reopened service (another process) reads the same schemas.
        let again = try #require(try backend.reopen(f).capabilities.schema)
        #expect(try again.schema(container: f.container, environment: .production) == schema)
        // Removing a field cannot deploy, and production stays.
        var smaller = schema
        var note = try #require(smaller.recordType(named: "Note"))
        note.removeField(named: "count")
        smaller.setRecordType(note)
        _ = try service.importSchema(smaller, container: f.container, dryRun: false, by: admin)
        let check = try service.deploySchema(container: f.container, dryRun: false, allowWiderGrants: false, by: admin)
        #expect(check.violations == [.fieldRemoved(recordType: "Note", field: "count")])
        #expect(try service.schema(container: f.container, environment: .production) == schema)
        // Reset clears development only.
        let dev = try f.request("alice")
        try f.save([f.record("n1", zone: "_defaultZone", dev, fields: ["title": .string("x")])], dev)
        try service.resetDevelopment(container: f.container, by: admin)
        #expect(try service.schema(container: f.container, environment: .development) == CloudSchema())
        #expect(try f.cloud.queryRecords(RecordQuery(recordType: "Note"), in: dev).records.isEmpty)
        #expect(try service.schema(container: f.container, environment: .production) == schema)
    }

    @Test(arguments: CloudBackend.allCases)
    func productionEnforcesTypesFieldsAndIndexes(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let service = try schemaService(f)
        _ = try service.importSchema(try SchemaParser.parse(Self.notes), container: f.container, dryRun: false, by: admin)
        _ = try service.deploySchema(container: f.container, dryRun: false, allowWiderGrants: false, by: admin)
        let prod = production(try f.request("alice"))
        func saveError(_ fields: [String: FieldValue], type: String = "Note") throws -> CloudError? {
            let result = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("n", zone: "_defaultZone", prod, type: type, fields: fields)]), in: prod)
            return result.errors.values.first
        }
        #expect(try saveError(["title": .string("a")], type: "Photo")?.code == .invalidArguments)
        #expect(try saveError(["color": .string("red")])?.reason.contains("'color' of Note") == true)
        #expect(try saveError(["count": .string("two")])?.reason.contains("INT64") == true)
        #expect(try saveError(["title": .string("a"), "count": .int64(2)]) == nil)
        #expect(try f.cloud.queryRecords(RecordQuery(recordType: "Note", predicate: try PredicateParser.parse("title == 'a'"),
                                                     sort: [SortDescriptor("title")]), in: prod).records.count == 1)
        let unindexed = cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Note", predicate: try PredicateParser.parse("count == 2")), in: prod) }
        #expect(unindexed?.code == .invalidArguments && unindexed?.reason.contains("count QUERYABLE") == true)
        let unsorted = cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Note", sort: [SortDescriptor("count")]), in: prod) }
        #expect(unsorted?.reason.contains("count SORTABLE") == true)
    }

    @Test(arguments: CloudBackend.allCases)
    func grantsRuleThePublicDatabase(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let service = try schemaService(f)
        let text = Self.notes + "\nRECORD TYPE Notice (text STRING, GRANT READ TO \"_world\");"
        _ = try service.importSchema(try SchemaParser.parse(text), container: f.container, dryRun: false, by: admin)
        let alice = try f.request("alice", .public)
        let bob = try f.request("bob", .public)
        let notice = try f.cloud.modifyRecords(ModifyRequest(saves: [f.record("x", zone: "_defaultZone", alice, type: "Notice")]), in: alice)
        #expect(notice.errors.values.first?.code == .permissionFailure)
        let note = try f.save([f.record("n1", zone: "_defaultZone", alice, fields: ["title": .string("mine")])], alice)[0]
        #expect(try f.cloud.queryRecords(RecordQuery(recordType: "Note"), in: bob).records.isEmpty)
        #expect(try f.cloud.queryRecords(RecordQuery(recordType: "Note"), in: alice).records.count == 1)
        #expect(cloudError { _ = try f.cloud.fetchRecords([note.recordID], in: bob)[note.recordID]?.get() }?.code == .permissionFailure)
    }

    @Test(arguments: CloudBackend.allCases)
    func searchableFieldsTakeTokenSearch(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let service = try schemaService(f)
        let text = "DEFINE SCHEMA RECORD TYPE Doc (body STRING SEARCHABLE, tags LIST<STRING> SEARCHABLE, secret STRING);"
        _ = try service.importSchema(try SchemaParser.parse(text), container: f.container, dryRun: false, by: admin)
        _ = try service.deploySchema(container: f.container, dryRun: false, allowWiderGrants: false, by: admin)
        for request in [try f.request("alice"), production(try f.request("alice"))] {
            try f.save([f.record("d1", zone: "_defaultZone", request, type: "Doc",
                                 fields: ["body": .string("Fresh bread, daily!"), "secret": .string("hidden")]),
                        f.record("d2", zone: "_defaultZone", request, type: "Doc",
                                 fields: ["tags": .list(.string, [.string("Bread-Maker")])])], request)
            func names(_ predicate: String) throws -> [String] {
                try f.cloud.queryRecords(RecordQuery(recordType: "Doc", predicate: try PredicateParser.parse(predicate),
                                                     sort: []), in: request).records.map(\.recordID.recordName).sorted()
            }
            #expect(try names("self CONTAINS 'bread'") == ["d1", "d2"])
            #expect(try names("self CONTAINS 'DAILY fresh'") == ["d1"])
            #expect(try names("self CONTAINS 'hidden'") == [], "only SEARCHABLE fields are searched")
            #expect(try names("NOT self CONTAINS 'maker'") == ["d1"])
        }
        // A type without a SEARCHABLE field cannot be searched in production.
        _ = try service.importSchema(try SchemaParser.parse(text + " RECORD TYPE Plain (t STRING);"), container: f.container, dryRun: false, by: admin)
        _ = try service.deploySchema(container: f.container, dryRun: false, allowWiderGrants: false, by: admin)
        let prod = production(try f.request("alice"))
        let refused = cloudError { _ = try f.cloud.queryRecords(RecordQuery(recordType: "Plain", predicate: try PredicateParser.parse("self CONTAINS 'x'")), in: prod) }
        #expect(refused?.code == .invalidArguments && refused?.reason.contains("SEARCHABLE") == true)
    }
}
