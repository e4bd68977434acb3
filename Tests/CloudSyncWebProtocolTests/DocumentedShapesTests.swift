import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing
@testable import CloudSyncWebProtocol

/// The codec against request and reply dictionaries written as Apple's CloudKit Web Services
/// Reference shows them ("Modifying Records", "Fetching Records Using a Query", "Fetching
/// Record Changes", "Fetching Database Changes", "Modifying Zones", "Modifying
/// Subscriptions", "Error Codes"): the documented keys, decoded into the project's types and
/// written back with the same keys.
@Suite struct DocumentedShapesTests {
    func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    @Test func modifyRequestAsDocumented() throws {
        // records/modify: operations of Record Operation Dictionaries; a create may omit recordName.
        let json = try parse("""
        {"operations": [
          {"operationType": "create",
           "record": {"recordType": "Artist",
                      "fields": {"firstName": {"value": "Mei"}, "lastName": {"value": "Chen"}}}},
          {"operationType": "update",
           "record": {"recordName": "Mei Chen", "recordType": "Artist", "recordChangeTag": "1",
                      "fields": {"width": {"value": 18, "type": "INT64"}}}}
        ], "zoneID": {"zoneName": "_defaultZone"}}
        """)
        let (request, keys) = try RecordsCodec.decodeModify(json)
        #expect(keys == nil)
        #expect(request.policy == .ifServerRecordUnchanged)
        #expect(request.saves.count == 2)
        #expect(request.saves[0].recordType == "Artist")
        // Fields without `type` are left to the service, which knows the schema.
        #expect(request.saves[0]["lastName"] == nil)
        #expect(request.untypedFields[request.saves[0].recordID]?["lastName"] == .string("Chen"))
        #expect(!request.saves[0].recordID.recordName.isEmpty, "a create without recordName gets a UUID")
        #expect(request.saves[1].changeTag == "1")
        #expect(request.saves[1]["width"] == .int64(18))
    }

    @Test func everyOperationTypeMapsToAPolicy() throws {
        func policy(_ type: String) throws -> (SavePolicy, Int, Int) {
            let json = try parse(#"{"operations":[{"operationType":"\#(type)","record":{"recordName":"r","recordType":"T"}}]}"#)
            let request = try RecordsCodec.decodeModify(json).request
            return (request.policy, request.saves.count, request.deletes.count)
        }
        #expect(try policy("create") == (.ifServerRecordUnchanged, 1, 0))
        #expect(try policy("update") == (.ifServerRecordUnchanged, 1, 0))
        #expect(try policy("replace") == (.ifServerRecordUnchanged, 1, 0))
        #expect(try policy("forceUpdate") == (.changedKeys, 1, 0))
        #expect(try policy("forceReplace") == (.allKeys, 1, 0))
        #expect(try policy("delete").1 == 0 && policy("delete").2 == 1)
        #expect(try policy("forceDelete").2 == 1)
        #expect(throws: CloudError.self) { try policy("upsert") }
    }

    @Test func modifyReplyWithPartialFailureAsDocumented() throws {
        // A per-record Record Fetch Error Dictionary sits among the saved records.
        let json = try parse("""
        {"records": [
          {"recordName": "a", "recordType": "Artist", "recordChangeTag": "2",
           "fields": {"name": {"value": "x", "type": "STRING"}},
           "created": {"timestamp": 1, "userRecordName": "_u"}, "modified": {"timestamp": 2, "userRecordName": "_u"},
           "zoneID": {"zoneName": "_defaultZone"}},
          {"recordName": "b", "reason": "record changed on the server", "serverErrorCode": "CONFLICT",
           "uuid": "9e5f1c4e-0000-4000-8000-000000000000"},
          {"recordName": "c", "deleted": true}
        ]}
        """)
        let result = try RecordsCodec.decodeModifyReply(json)
        #expect(result.saved.map(\.recordID.recordName) == ["a"])
        #expect(result.deleted.map(\.recordName) == ["c"])
        #expect(result.errors.count == 1)
        let error = try #require(result.errors.first)
        #expect(error.key.recordName == "b")
        #expect(error.value.code == .serverRecordChanged)
        #expect(error.value.reason == "record changed on the server")
    }

    @Test func queryRequestAsDocumented() throws {
        let json = try parse("""
        {"zoneID": {"zoneName": "Art"}, "resultsLimit": 5,
         "query": {"recordType": "Artist",
                   "filterBy": [{"comparator": "EQUALS", "fieldName": "lastName", "fieldValue": {"value": "Chen"}},
                                {"comparator": "GREATER_THAN", "fieldName": "age", "fieldValue": {"value": 30, "type": "INT64"}},
                                {"comparator": "NOT_IN", "fieldName": "city", "fieldValue": {"value": ["Oslo", "Rome"], "type": "STRING_LIST"}}],
                   "sortBy": [{"fieldName": "firstName"}, {"fieldName": "age", "ascending": false}]},
         "continuationMarker": "abc", "desiredKeys": ["firstName"]}
        """)
        let (query, keys) = try RecordsCodec.decodeQuery(json)
        #expect(query.recordType == "Artist")
        #expect(query.zoneName == "Art")
        #expect(query.limit == 5)
        #expect(query.continuation == "abc")
        #expect(keys == ["firstName"])
        #expect(query.predicate == .and([
            .comparison("lastName", .equal, .argument("Chen")),
            .comparison("age", .greater, .int64(30)),
            .not(.comparison("city", .in, .list([.string("Oslo"), .string("Rome")]))),
        ]))
        #expect(query.sort == [SortDescriptor("firstName"), SortDescriptor("age", ascending: false)])
    }

    @Test func unknownComparatorIsABadRequest() throws {
        let json = try parse(#"{"query":{"recordType":"A","filterBy":[{"comparator":"NEAR","fieldName":"l","fieldValue":{"value":1}}]}}"#)
        let error = cloudError { _ = try RecordsCodec.decodeQuery(json) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains("NEAR") == true)
    }

    @Test func predicatesRoundTripThroughFilterBy() throws {
        let predicates: [Predicate] = [
            .truePredicate,
            .comparison("title", .beginsWith, .string("dr")),
            .and([.comparison("n", .lessOrEqual, .double(2.5)), .comparison("tags", .contains, .string("x"))]),
            .not(.comparison("title", .beginsWith, .string("a"))),
            .comparison("at", .greaterOrEqual, .timestamp(1_700_000_000_000)),
            // Not sayable as filterBy: travels as format text.
            .not(.and([.comparison("a", .equal, .int64(1)), .comparison("b", .equal, .int64(2))])),
        ]
        for predicate in predicates {
            let json = QueryCodec.encode(recordType: "T", predicate: predicate, sort: [SortDescriptor("n", ascending: false)])
            let back = try QueryCodec.decode(try JSONValue.parse(json.serialized()))
            #expect(back.predicate == predicate || (predicate == .truePredicate && back.predicate == .truePredicate))
            #expect(back.sort == [SortDescriptor("n", ascending: false)])
        }
    }

    @Test func recordChangesReplyAsDocumented() throws {
        let json = try parse("""
        {"zoneID": {"zoneName": "Art", "ownerRecordName": "_abc"},
         "records": [{"recordName": "a", "recordType": "Artist", "fields": {}, "recordChangeTag": "3",
                      "zoneID": {"zoneName": "Art", "ownerRecordName": "_abc"}},
                     {"recordName": "gone", "recordType": "Artist", "deleted": true,
                      "zoneID": {"zoneName": "Art", "ownerRecordName": "_abc"}}],
         "syncToken": "AQAAAA", "moreComing": true}
        """)
        let changes = try RecordsCodec.decodeChangesReply(json)
        #expect(changes.changed.map(\.recordID.recordName) == ["a"])
        #expect(changes.deleted == [RecordDeletion(recordID: RecordID(recordName: "gone", zoneID: ZoneID(zoneName: "Art", ownerRecordName: "_abc")),
                                                   recordType: "Artist")])
        #expect(changes.token.rawValue == "AQAAAA")
        #expect(changes.moreComing)
        let again = try RecordsCodec.decodeChangesReply(RecordsCodec.encodeChangesReply(changes, zoneID: ZoneID(zoneName: "Art", ownerRecordName: "_abc"),
                                                                                         desiredKeys: nil))
        #expect(again.changed == changes.changed && again.deleted == changes.deleted && again.token == changes.token)
    }

    @Test func zonesAndDatabaseChangesAsDocumented() throws {
        let zones = try ZonesCodec.decodeZones(try parse("""
        {"zones": [{"zoneID": {"zoneName": "_defaultZone"}, "syncToken": "t1", "atomic": true},
                   {"zoneID": {"zoneName": "Art", "ownerRecordName": "_u"}, "atomic": false}]}
        """))
        #expect(zones.map(\.zoneID.zoneName) == ["_defaultZone", "Art"])
        #expect(zones[0].capabilities == [.fetchChanges, .atomic])
        #expect(zones[1].capabilities == [.fetchChanges])
        #expect(zones[0].syncToken?.rawValue == "t1")

        let modify = try ZonesCodec.decodeModify(try parse("""
        {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Art"}}},
                        {"operationType": "delete", "zone": {"zoneID": {"zoneName": "Old"}}}]}
        """))
        #expect(modify == [.create(ZoneSpec(name: "Art")), .delete("Old", purge: false)])

        let changes = try ZonesCodec.decodeChangesReply(try parse("""
        {"zones": [{"zoneID": {"zoneName": "Old"}, "deleted": true, "purged": true}, {"zoneID": {"zoneName": "Art"}}],
         "syncToken": "db2", "moreComing": false}
        """))
        #expect(changes.changedZones.map(\.zoneName) == ["Art"])
        #expect(changes.deletedZones.map(\.zoneID.zoneName) == ["Old"])
        #expect(changes.deletedZones.first?.reason == .purged)
        let back = try ZonesCodec.decodeChangesReply(ZonesCodec.encodeChangesReply(changes))
        #expect(back.changedZones == changes.changedZones && back.token == changes.token && back.moreComing == changes.moreComing)
    }

    @Test func subscriptionAsDocumented() throws {
        let json = try parse("""
        {"operations": [{"operationType": "create", "subscription": {
            "subscriptionID": "new-artists", "subscriptionType": "query",
            "query": {"recordType": "Artist", "filterBy": [{"comparator": "EQUALS", "fieldName": "lastName",
                                                            "fieldValue": {"value": "Chen", "type": "STRING"}}]},
            "zoneID": {"zoneName": "Art"}, "firesOn": ["create", "update"], "firesOnce": false,
            "notificationInfo": {"alertBody": "New artist", "shouldSendContentAvailable": false}}},
          {"operationType": "delete", "subscription": {"subscriptionID": "old"}}]}
        """)
        let (saves, deletes) = try SubscriptionsCodec.decodeModify(json)
        #expect(deletes == ["old"])
        let subscription = try #require(saves.first)
        let query = try #require(subscription.query)
        #expect(query.recordType == "Artist")
        #expect(query.zoneName == "Art")
        #expect(query.firesOn == [.create, .update])
        #expect(query.predicate == .comparison("lastName", .equal, .string("Chen")))
        #expect(subscription.notificationInfo.alertBody == "New artist")
        let back = try SubscriptionsCodec.decode(SubscriptionsCodec.encode(subscription, owner: "_u"))
        #expect(back == subscription)
        let zone = Subscription(subscriptionID: "z", kind: .recordZone(zoneName: "Art"))
        #expect(try SubscriptionsCodec.decode(SubscriptionsCodec.encode(zone, owner: "_u")) == zone)
        let database = Subscription(subscriptionID: "d", kind: .database)
        #expect(try SubscriptionsCodec.decode(SubscriptionsCodec.encode(database, owner: "_u")) == database)
    }

    @Test func errorBodyAsDocumented() throws {
        // {"uuid", "serverErrorCode", "reason"} with the documented HTTP status of each code.
        let json = try parse(#"{"uuid": "173179e2-c5a5-4393-ab4f-3cec194edd1c", "serverErrorCode": "AUTHENTICATION_FAILED", "reason": "Authentication failed"}"#)
        let error = WebServicesError.decode(json, status: 401)
        #expect(error.code == .notAuthenticated)
        #expect(error.reason == "Authentication failed")
        let documented: [(String, Int)] = [
            ("ACCESS_DENIED", 403), ("ATOMIC_ERROR", 400), ("AUTHENTICATION_FAILED", 401), ("AUTHENTICATION_REQUIRED", 421),
            ("BAD_REQUEST", 400), ("CONFLICT", 409), ("EXISTS", 409), ("INTERNAL_ERROR", 500), ("NOT_FOUND", 404),
            ("QUOTA_EXCEEDED", 413), ("THROTTLED", 429), ("TRY_AGAIN_LATER", 503), ("VALIDATING_REFERENCE_ERROR", 412),
            ("ZONE_NOT_FOUND", 404),
        ]
        for (code, status) in documented { #expect(WebServicesError.status(forServerErrorCode: code) == status, "\(code)") }
        // Every project code survives the trip through a body, with its retryAfter.
        for code in CloudError.Code.allCases {
            let body = WebServicesError.body(CloudError(code, "why", retryAfter: 3), uuid: "u")
            let back = WebServicesError.decode(try parse(body.serialized()), status: WebServicesError.status(for: CloudError(code, "")))
            #expect(back.code == code && back.reason == "why" && back.retryAfter == 3)
            #expect(body["serverErrorCode"]?.stringValue == code.serverErrorCode)
            #expect(body["ckErrorCode"]?.stringValue == code.rawValue)
        }
    }

    @Test func keyValueItemsRoundTrip() throws {
        let writes = [KeyValueWrite(key: "icloud_sync", value: .bool(true)), KeyValueWrite(key: "n", value: .number(2.5)),
                      KeyValueWrite(key: "s", value: .string("x")), KeyValueWrite(key: "d", value: .data([0, 255])),
                      KeyValueWrite(key: "j", value: .json(.array([.int(1)]))), KeyValueWrite(key: "gone", value: nil)]
        #expect(try KeyValueCodec.decodeModify(try parse(KeyValueCodec.encodeModify(writes).serialized())) == writes)
    }

    @Test func apnsTokensNameDevices() throws {
        for device in ["dev1", "laptop é", "a/b?c"] {
            let token = NotificationsCodec.apnsToken(forDevice: device)
            #expect(token.allSatisfy { $0.isHexDigit })
            #expect(try NotificationsCodec.device(fromAPNSToken: token) == device)
        }
        #expect(throws: CloudError.self) { try NotificationsCodec.device(fromAPNSToken: "zz") }
    }
}
