import CloudSyncService
import CloudSyncCore
import Testing
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer

/// `records/modify` with fields saved without `type` ("optional when saving a record"): a field
/// the schema knows takes the schema's type, a new one its value's shape; a value that cannot
/// be typed fails its record alone. And `assets/upload` names a token's record when the
/// request does not.
@Suite struct UntypedSaveTests {
    /// `records/modify` of `records` (record dictionaries) in the default zone.
    func save(_ f: WebServicesFixture, _ records: [String]) -> (status: Int, json: JSONValue, response: WebServicesResponse) {
        let operations = records.map { #"{"operationType":"forceReplace","record":\#($0)}"# }
        return f.call("records/modify", #"{"operations":[\#(operations.joined(separator: ","))]}"#)
    }

    /// An uploaded asset's `singleFile` dictionary, as Apple's upload reply gives it.
    func upload(_ f: WebServicesFixture, _ text: String) throws -> String {
        let data = f.handler.handle(WebServicesRequest(method: "POST", path: "/database/1/\(f.container)/development/private/assets/data",
                                                       body: Array(text.utf8), account: "alice"))
        return try #require(try JSONValue.parse(bytes: data.body)["singleFile"]).serialized()
    }

    func types(_ record: JSONValue?) -> [String: String] {
        var out: [String: String] = [:]
        for (name, field) in record?["fields"]?.objectValue ?? [] { out[name] = field["type"]?.stringValue }
        return out
    }

    @Test func fieldsTheSchemaKnowsTakeItsTypeWithTheirValuesConverted() throws {
        let f = try WebServicesFixture()
        let file = try upload(f, "hello")
        // A typed save makes the (development) schema.
        let typed = save(f, [#"""
            {"recordName":"first","recordType":"Sample","fields":{"ratio":{"value":1.5,"type":"DOUBLE"},
             "when":{"value":1,"type":"TIMESTAMP"},"blob":{"value":"AA==","type":"BYTES"},
             "link":{"value":{"recordName":"x"},"type":"REFERENCE"},"place":{"value":{"latitude":1,"longitude":2},"type":"LOCATION"},
             "file":{"value":\#(file),"type":"ASSETID"},"scores":{"value":[0.5],"type":"DOUBLE_LIST"}}}
            """#])
        #expect(typed.status == 200 && typed.json["records"]?.arrayValue?.first?["serverErrorCode"] == nil, "\(typed.json)")
        let untyped = save(f, [#"""
            {"recordName":"second","recordType":"Sample","fields":{"ratio":{"value":2},"when":{"value":1700000000000},
             "blob":{"value":"aGVsbG8="},"link":{"value":"first"},"place":{"value":{"latitude":48.85,"longitude":2.35}},
             "file":{"value":\#(file)},"scores":{"value":[1,2]}}}
            """#])
        #expect(untyped.status == 200, "\(untyped.json)")
        let record = untyped.json["records"]?.arrayValue?.first
        #expect(record?["serverErrorCode"] == nil, "\(untyped.json)")
        #expect(types(record) == ["ratio": "DOUBLE", "when": "TIMESTAMP", "blob": "BYTES", "link": "REFERENCE",
                                  "place": "LOCATION", "file": "ASSETID", "scores": "DOUBLE_LIST"])
        #expect(record?["fields"]?["ratio"]?["value"]?.doubleValue == 2)
        #expect(record?["fields"]?["when"]?["value"] == .int(1_700_000_000_000))
        #expect(record?["fields"]?["blob"]?["value"] == .string("aGVsbG8="))
        #expect(record?["fields"]?["link"]?["value"]?["recordName"] == .string("first"))
        #expect(record?["fields"]?["place"]?["value"]?["latitude"]?.doubleValue == 48.85)
        #expect(record?["fields"]?["file"]?["value"]?["size"] == .int(5))
    }

    @Test func fieldsTheSchemaDoesNotKnowAreTypedByTheirShape() throws {
        let f = try WebServicesFixture()
        let file = try upload(f, "bytes")
        let reply = save(f, [#"""
            {"recordName":"s","recordType":"Shapes","fields":{"file":{"value":\#(file)},"ref":{"value":{"recordName":"s"}},
             "loc":{"value":{"latitude":1.5,"longitude":-2}},"counts":{"value":[1,2]},"names":{"value":["a"]},
             "n":{"value":3},"x":{"value":0.25},"s":{"value":"text"}}}
            """#])
        let record = reply.json["records"]?.arrayValue?.first
        #expect(reply.status == 200 && record?["serverErrorCode"] == nil, "\(reply.json)")
        #expect(types(record) == ["file": "ASSETID", "ref": "REFERENCE", "loc": "LOCATION", "counts": "INT64_LIST",
                                  "names": "STRING_LIST", "n": "INT64", "x": "DOUBLE", "s": "STRING"])
    }

    @Test func aValueThatCannotBeTypedFailsItsRecordAlone() throws {
        let f = try WebServicesFixture()
        #expect(save(f, [#"{"recordName":"a","recordType":"T","fields":{"ratio":{"value":1.5,"type":"DOUBLE"}}}"#]).status == 200)
        let reply = save(f, [
            #"{"recordName":"good","recordType":"T","fields":{"ratio":{"value":3}}}"#,
            #"{"recordName":"shapeless","recordType":"T","fields":{"what":{"value":{"color":"red"}}}}"#,
            #"{"recordName":"empty","recordType":"T","fields":{"what":{"value":[]}}}"#,
            #"{"recordName":"mismatch","recordType":"T","fields":{"ratio":{"value":"three"}}}"#,
        ])
        #expect(reply.status == 200, "\(reply.json)")
        let records = reply.json["records"]?.arrayValue ?? []
        #expect(records.first { $0["recordName"] == .string("good") }?["recordChangeTag"] != nil, "\(reply.json)")
        for name in ["shapeless", "empty", "mismatch"] {
            let entry = records.first { $0["recordName"] == .string(name) }
            #expect(entry?["serverErrorCode"] == .string("BAD_REQUEST"), "\(name): \(reply.json)")
            #expect(entry?["reason"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func anUploadTokenWithoutARecordNameGetsANewOne() throws {
        let f = try WebServicesFixture()
        let reply = f.call("assets/upload", #"{"tokens":[{"recordType":"Note","fieldName":"file"},{"recordName":"n1","recordType":"Note","fieldName":"file"}]}"#)
        #expect(reply.status == 200)
        let tokens = reply.json["tokens"]?.arrayValue ?? []
        let generated = try #require(tokens.first?["recordName"]?.stringValue, "\(reply.json)")
        #expect(generated.count == 36 && generated.split(separator: "-").count == 5, "\(generated)")
        #expect(tokens.first?["fieldName"] == .string("file"))
        #expect(tokens.last?["recordName"] == .string("n1"))
        #expect(WireErrorCodeTests.nulls(reply.json).isEmpty, "\(reply.json)")
    }
}
