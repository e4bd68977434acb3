import CloudSyncService
import CloudSyncCore
import Testing
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer

/// `WebServicesHandler` driven directly, over an SQLite cloud in a temp folder.
@Suite struct HandlerTests {
    @Test func zonesRoutes() throws {
        let f = try WebServicesFixture()
        let created = f.call("zones/modify", #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Art"}}}]}"#)
        #expect(created.status == 200)
        #expect(created.json["zones"]?.arrayValue?.first?["zoneID"]?["zoneName"] == .string("Art"))
        let list = f.call("zones/list", "", method: "GET")
        #expect(list.status == 200)
        #expect(list.json["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } == ["_defaultZone", "Art"])
        let lookup = f.call("zones/lookup", #"{"zones":[{"zoneName":"Art"},{"zoneName":"Nope"}]}"#)
        #expect(lookup.json["zones"]?.arrayValue?[0]["zoneID"]?["zoneName"] == .string("Art"))
        #expect(lookup.json["zones"]?.arrayValue?[1]["serverErrorCode"] == .string("ZONE_NOT_FOUND"))
        let changes = f.call("changes/database", "{}")
        #expect(changes.json["zones"]?.arrayValue?.contains { $0["zoneID"]?["zoneName"] == .string("Art") } == true)
        let token = try #require(changes.json["syncToken"]?.stringValue)
        #expect(changes.json["moreComing"] == .bool(false))
        let deleted = f.call("zones/modify", #"{"operations":[{"operationType":"delete","zone":{"zoneID":{"zoneName":"Art"}}}]}"#)
        #expect(deleted.json["zones"]?.arrayValue?.first?["deleted"] == .bool(true))
        let after = f.call("zones/changes", #"{"syncToken":"\#(token)"}"#)
        #expect(after.json["zones"]?.arrayValue?.first?["deleted"] == .bool(true))
        let gone = f.call("records/changes", #"{"zoneID":{"zoneName":"Art"}}"#)
        #expect(gone.status == 404)
        #expect(gone.json["serverErrorCode"] == .string("ZONE_NOT_FOUND"))
    }

    @Test func recordsRoutesWithPartialFailure() throws {
        let f = try WebServicesFixture()
        _ = f.call("zones/modify", #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Art"}}}]}"#)
        let save = f.call("records/modify", """
        {"zoneID":{"zoneName":"Art"},"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"Note","fields":{"title":{"value":"one"},"n":{"value":1}}}},
                       {"operationType":"create","record":{"recordName":"b","recordType":"Note","fields":{"title":{"value":"two"},"n":{"value":2}}}}]}
        """)
        #expect(save.status == 200)
        let records = try #require(save.json["records"]?.arrayValue)
        #expect(records.count == 2)
        let tag = try #require(records[0]["recordChangeTag"]?.stringValue)
        // A stale change tag on a, a good one on nothing else: a's CONFLICT comes per record, with the server record.
        let conflict = f.call("records/modify", """
        {"zoneID":{"zoneName":"Art"},"operations":[{"operationType":"update","record":{"recordName":"a","recordType":"Note","recordChangeTag":"stale","fields":{"title":{"value":"x"}}}},
                       {"operationType":"update","record":{"recordName":"b","recordType":"Note","recordChangeTag":"\(records[1]["recordChangeTag"]?.stringValue ?? "")","fields":{"title":{"value":"y"},"n":{"value":2}}}}]}
        """)
        #expect(conflict.status == 200)
        let items = try #require(conflict.json["records"]?.arrayValue)
        let failed = try #require(items.first { $0["serverErrorCode"] != nil })
        #expect(failed["recordName"] == .string("a"))
        #expect(failed["serverErrorCode"] == .string("CONFLICT"))
        #expect(failed["reason"]?.stringValue?.isEmpty == false)
        #expect(failed["serverRecord"]?["recordChangeTag"] == .string(tag))
        let lookup = f.call("records/lookup", #"{"zoneID":{"zoneName":"Art"},"records":[{"recordName":"a"},{"recordName":"zz"}],"desiredKeys":["n"]}"#)
        let found = try #require(lookup.json["records"]?.arrayValue)
        #expect(found[0]["fields"]?["n"]?["value"] == .int(1))
        #expect(found[0]["fields"]?["title"] == nil, "desiredKeys limits the fields")
        #expect(found[1]["serverErrorCode"] == .string("NOT_FOUND"))
        let query = f.call("records/query", """
        {"zoneID":{"zoneName":"Art"},"query":{"recordType":"Note","filterBy":[{"comparator":"GREATER_THAN","fieldName":"n","fieldValue":{"value":0,"type":"INT64"}}],
                  "sortBy":[{"fieldName":"n","ascending":false}]},"resultsLimit":1}
        """)
        #expect(query.json["records"]?.arrayValue?.map { $0["recordName"] } == [.string("b")])
        let marker = try #require(query.json["continuationMarker"]?.stringValue)
        let next = f.call("records/query", """
        {"zoneID":{"zoneName":"Art"},"query":{"recordType":"Note","filterBy":[{"comparator":"GREATER_THAN","fieldName":"n","fieldValue":{"value":0,"type":"INT64"}}],
                  "sortBy":[{"fieldName":"n","ascending":false}]},"resultsLimit":1,"continuationMarker":"\(marker)"}
        """)
        #expect(next.json["records"]?.arrayValue?.map { $0["recordName"] } == [.string("a")])
        let page = f.call("records/changes", #"{"zoneID":{"zoneName":"Art"},"resultsLimit":1}"#)
        #expect(page.json["records"]?.arrayValue?.count == 1)
        #expect(page.json["moreComing"] == .bool(true))
        let delete = f.call("records/modify", #"{"operations":[{"operationType":"forceDelete","record":{"recordName":"a","zoneID":{"zoneName":"Art"}}}]}"#)
        #expect(delete.json["records"]?.arrayValue?.first?["deleted"] == .bool(true))
        let rest = f.call("records/changes", #"{"zoneID":{"zoneName":"Art"},"syncToken":"\#(page.json["syncToken"]?.stringValue ?? "")"}"#)
        #expect(rest.json["records"]?.arrayValue?.contains { $0["recordName"] == .string("a") && $0["deleted"] == .bool(true) } == true)
    }

    @Test func subscriptionsUsersTokensPollKVAndAssets() throws {
        let f = try WebServicesFixture()
        let sub = f.call("subscriptions/modify", """
        {"operations":[{"operationType":"create","subscription":{"subscriptionID":"all","subscriptionType":"query",
          "query":{"recordType":"Note"},"firesOn":["create"],"notificationInfo":{"shouldSendContentAvailable":true}}}]}
        """, headers: [("X-CloudSync-Device", "phone")])
        #expect(sub.status == 200)
        #expect(f.call("subscriptions/list", "", method: "GET").json["subscriptions"]?.arrayValue?.count == 1)
        let lookup = f.call("subscriptions/lookup", #"{"subscriptions":[{"subscriptionID":"all"},{"subscriptionID":"nope"}]}"#)
        #expect(lookup.json["subscriptions"]?.arrayValue?[1]["serverErrorCode"] == .string("NOT_FOUND"))
        let user = f.call("users/current", "", method: "GET")
        #expect(user.json["userRecordName"]?.stringValue?.hasPrefix("_") == true)
        let token = f.call("tokens/create", #"{"apnsEnvironment":"development"}"#, headers: [("X-CloudSync-Device", "phone")])
        let apns = try #require(token.json["apnsToken"]?.stringValue)
        #expect(token.json["webcourierURL"]?.stringValue?.hasSuffix("/notifications/poll") == true)
        #expect(f.call("tokens/register", #"{"apnsToken":"\#(apns)"}"#).status == 200)
        // Another device saves a record; the phone's poll reads the notification.
        _ = f.call("records/modify", #"{"operations":[{"operationType":"create","record":{"recordName":"n1","recordType":"Note"}}]}"#,
                   headers: [("X-CloudSync-Device", "laptop")])
        let poll = f.call("notifications/poll", #"{"apnsToken":"\#(apns)","timeout":5}"#)
        #expect(poll.json["notifications"]?.arrayValue?.first?["subscriptionID"] == .string("all"))
        let empty = f.call("notifications/poll", #"{"apnsToken":"\#(apns)","timeout":0}"#)
        #expect(empty.json["notifications"]?.arrayValue?.isEmpty == true)
        #expect(f.call("subscriptions/modify", #"{"operations":[{"operationType":"delete","subscription":{"subscriptionID":"all"}}]}"#).status == 200)
        // KV store, private only.
        let kv = f.call("kv/modify", #"{"items":[{"key":"icloud_sync","value":{"type":"bool","value":true}}]}"#)
        #expect(kv.json["items"]?.arrayValue?.first?["value"]?["value"] == .bool(true))
        let kvChanges = f.call("kv/changes", "{}")
        #expect(kvChanges.json["items"]?.arrayValue?.count == 1)
        #expect(kvChanges.json["syncToken"]?.stringValue != nil)
        let publicKV = f.call("kv/changes", "{}", scope: "public")
        #expect(publicKV.status == 400 && publicKV.json["serverErrorCode"] == .string("BAD_REQUEST"))
        #expect(publicKV.json["ckErrorCode"] == .string("badDatabase"))
        // Assets: upload tokens, the bytes, then the download URL.
        let upload = f.call("assets/upload", #"{"tokens":[{"recordName":"n1","recordType":"Note","fieldName":"file"}]}"#)
        #expect(upload.json["tokens"]?.arrayValue?.first?["url"]?.stringValue?.hasSuffix("/assets/data") == true)
        let data = f.handler.handle(WebServicesRequest(method: "POST", path: "/database/1/\(f.container)/development/private/assets/data",
                                                       body: Array("hello".utf8), account: "alice"))
        let file = try JSONValue.parse(bytes: data.body)["singleFile"]
        let checksum = try #require(file?["fileChecksum"]?.stringValue)
        #expect(file?["size"] == .int(5))
        let download = f.call("assets/download", "", method: "GET", query: [("fileChecksum", checksum), ("size", "5")])
        #expect(download.status == 200)
        #expect(download.response.body == Array("hello".utf8))
        #expect(f.call("assets/download", "", method: "GET", query: [("fileChecksum", "00"), ("size", "5")]).status == 404)
    }

    @Test func malformedJSONIs400WithTheByteOffset() throws {
        let f = try WebServicesFixture()
        let reply = f.call("records/modify", #"{"operations": [}"#)
        #expect(reply.status == 400)
        #expect(reply.json["serverErrorCode"] == .string("BAD_REQUEST"))
        #expect(reply.json["reason"]?.stringValue?.contains("byte offset 16") == true, "\(reply.json)")
        #expect(reply.json["uuid"] == .string("test-uuid"))
        #expect(reply.response.header("Content-Type") == "application/json")
        let deep = f.call("records/query", String(repeating: "[", count: 600))
        #expect(deep.status == 400)
    }

    @Test func moreThan200OperationsIs400() throws {
        let f = try WebServicesFixture()
        let ops = (0..<201).map { #"{"operationType":"create","record":{"recordName":"r\#($0)","recordType":"T"}}"# }
        let reply = f.call("records/modify", #"{"operations":[\#(ops.joined(separator: ","))]}"#)
        #expect(reply.status == 400)
        #expect(reply.json["serverErrorCode"] == .string("BAD_REQUEST"))
        #expect(reply.json["ckErrorCode"] == .string("limitExceeded"))
        #expect(try f.cloud.fetchAllZones(in: DatabaseRequest(container: f.container, scope: .private,
                                                              userRecordName: f.cloud.account(named: "alice").userRecordName, deviceID: "d"))
            .first?.recordCount == 0, "nothing was saved")
        let ok = (0..<200).map { #"{"operationType":"create","record":{"recordName":"r\#($0)","recordType":"T"}}"# }
        #expect(f.call("records/modify", #"{"operations":[\#(ok.joined(separator: ","))]}"#).status == 200)
    }

    @Test func pathsMethodsAndCredentials() throws {
        let f = try WebServicesFixture()
        func status(_ path: String, method: String = "POST", account: String? = "alice", headers: [(String, String)] = []) -> (Int, JSONValue) {
            let response = f.handler.handle(WebServicesRequest(method: method, path: path, headers: headers, body: [], account: account))
            return (response.status, (try? JSONValue.parse(bytes: response.body)) ?? .null)
        }
        let base = "/database/1/\(f.container)/development/private"
        #expect(status("/nope").0 == 404)
        #expect(status("\(base)/records/frobnicate").0 == 404)
        #expect(status("/database/2/\(f.container)/development/private/zones/list").0 == 404)
        let badContainer = status("/database/1/com.example/development/private/zones/list")
        #expect(badContainer.0 == 400 && badContainer.1["reason"]?.stringValue?.contains("container") == true)
        let badEnv = status("/database/1/\(f.container)/staging/private/zones/list")
        #expect(badEnv.0 == 400 && badEnv.1["reason"]?.stringValue?.contains("environment") == true)
        let badDatabase = status("/database/1/\(f.container)/development/secret/zones/list")
        #expect(badDatabase.0 == 400 && badDatabase.1["reason"]?.stringValue?.contains("database") == true)
        let handler = f.handler
        let wrong = handler.handle(WebServicesRequest(method: "GET", path: "\(base)/records/modify", account: "alice"))
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "POST")
        let anonymous = status("\(base)/zones/list", account: nil)
        #expect(anonymous.0 == 401 && anonymous.1["serverErrorCode"] == .string("AUTHENTICATION_FAILED"))
        let other = status("\(base)/zones/list", headers: [("X-CloudSync-Account", "bob")])
        #expect(other.0 == 403 && other.1["serverErrorCode"] == .string("ACCESS_DENIED"))
        #expect(status("\(base)/zones/list", headers: [("X-CloudSync-Account", "alice")]).0 == 200)
    }

    @Test func serviceErrorsCarryRetryAfter() throws {
        let handler = WebServicesHandler(cloudFor: { _ throws(CloudError) in
            throw CloudError(.requestRateLimited, "slow down", retryAfter: 2.5)
        })
        let response = handler.handle(WebServicesRequest(method: "POST", path: "/database/1/iCloud.a.b/production/public/zones/list",
                                                         account: "alice"))
        #expect(response.status == 429)
        #expect(response.header("Retry-After") == "3")
        let json = try JSONValue.parse(bytes: response.body)
        #expect(json["serverErrorCode"] == .string("THROTTLED"))
        #expect(json["retryAfter"] == .double(2.5))
        #expect(json["uuid"]?.stringValue?.count == 36)
    }
}

/// The handler never traps and always answers a Web Services error or a reply, whatever the
/// path, method and body (a deterministic pseudo-random sweep over every endpoint).
@Suite struct HandlerRobustnessTests {
    @Test func oversizedBodiesAre400BadRequest() throws {
        let f = try WebServicesFixture()
        let big = [UInt8](repeating: 0x20, count: WebServicesHandler.maxJSONBodyBytes + 1)
        let response = f.handler.handle(WebServicesRequest(method: "POST", path: "/database/1/\(f.container)/development/private/records/modify",
                                                           body: big, account: "alice"))
        #expect(response.status == 400)
        #expect(try JSONValue.parse(bytes: response.body)["ckErrorCode"] == .string("limitExceeded"))
        #expect(WebServicesHandler.maxBodyBytes(forPath: "/database/1/\(f.container)/development/private/assets/data") == CloudLimits.maxAssetSize)
    }

    @Test func arbitraryInputNeverCrashes() throws {
        let f = try WebServicesFixture()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        let fragments = [#"{"operations":["#, #"{"operationType":"create","record":{"recordName":"#, #""r","recordType":"T"}}"#,
                         #"{"zoneID":{"zoneName":"#, #""Art"}}"#, #""query":{"recordType":"T","filterBy":[{"comparator":"EQUALS","fieldName":"a","fieldValue":"#,
                         #"{"value":1}}]}"#, "]", "}", ",", "null", "\"\u{0}\"", "1e999", "-0", "[", "{", #""syncToken":"AAAA""#,
                         #""resultsLimit":-1"#, #""apnsToken":"6465""#, #""timeout":0"#, #""items":[{"key":"k","value":{"type":"json","value":[]}}]"#]
        let statuses: Set<Int> = [200, 400, 401, 403, 404, 405, 409, 412, 413, 421, 429, 500, 503]
        for round in 0..<400 {
            let endpoint = WebServicesEndpoint.allCases[Int(next() % UInt64(WebServicesEndpoint.allCases.count))]
            var body = ""
            for _ in 0..<Int(next() % 8) { body += fragments[Int(next() % UInt64(fragments.count))] }
            let method = ["POST", "GET", "PUT"][Int(next() % 3)]
            let scope = ["private", "public", "shared"][Int(next() % 3)]
            let response = f.handler.handle(WebServicesRequest(method: method, path: "/database/1/\(f.container)/development/\(scope)/\(endpoint.rawValue)",
                                                               body: Array(body.utf8), account: "alice"))
            #expect(statuses.contains(response.status), "round \(round): \(response.status)")
            if response.status != 200 {
                let json = try JSONValue.parse(bytes: response.body)
                #expect(json["serverErrorCode"]?.stringValue != nil && json["reason"]?.stringValue != nil && json["uuid"] != nil)
            }
        }
    }
}
