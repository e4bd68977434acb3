@testable import CloudSyncCore
import Testing

@Suite("RecordJSON")
struct RecordJSONTests {
    static let otherZone = ZoneID(zoneName: "Shared", ownerRecordName: "_fedcba9876543210fedcba9876543210")
    static let ref1 = Reference(recordID: RecordID(recordName: "parent", zoneID: Fixtures.zone), action: .deleteSelf)
    static let ref2 = Reference(recordID: RecordID(recordName: "other", zoneID: otherZone), action: .none)
    static let fullLocation = Location(latitude: 48.8584, longitude: 2.2945, horizontalAccuracy: 5, verticalAccuracy: 3,
                                       altitude: 35.5, speed: 1.25, course: 270, timestamp: 1_700_000_000_123)
    static let asset = AssetReference(checksum: String(repeating: "ab", count: 32), size: 1234)

    /// A record with every field type and a list of every type, saved (system fields set).
    static let everything: Record = Fixtures.record("everything", [
        "s": .string("héllo \"world\"\n😀"),
        "i": .int64(.min),
        "d": .double(-0.125),
        "dz": .double(3),
        "t": .timestamp(1_704_164_645_123),
        "b": .bytes([0, 1, 2, 250, 251, 252, 253, 254, 255]),
        "r1": .reference(ref1),
        "r2": .reference(ref2),
        "loc": .location(fullLocation),
        "loc2": .location(Location(latitude: -90, longitude: 180)),
        "a": .asset(asset),
        "sl": .list(.string, [.string("a"), .string("")]),
        "il": .list(.int64, [.int64(1), .int64(.max)]),
        "dl": .list(.double, [.double(1.5), .double(-2)]),
        "tl": .list(.timestamp, [.timestamp(0), .timestamp(-1)]),
        "bl": .list(.bytes, [.bytes([]), .bytes([255])]),
        "rl": .list(.reference, [.reference(ref1), .reference(ref2)]),
        "ll": .list(.location, [.location(fullLocation), .location(Location(latitude: 0, longitude: 0))]),
        "al": .list(.asset, [.asset(asset)]),
        "empty": .list(.string, []),
    ], created: 1_700_000_000_000, modified: 1_700_000_000_999)

    @Test func roundTripOfEveryTypeThroughText() throws {
        let text = RecordJSON.encode(Self.everything).serialized()
        let decoded = try RecordJSON.decodeRecord(try JSONValue.parse(text))
        #expect(decoded == Self.everything)
        #expect(decoded.system?.created.deviceID == "laptop")
        #expect(decoded.system?.modified.userRecordName == "_editor")
        // Pretty output decodes the same.
        #expect(try RecordJSON.decodeRecord(try JSONValue.parse(RecordJSON.encode(Self.everything).prettyPrinted())) == Self.everything)
    }

    @Test func unsavedRecordRoundTripsWithoutSystemFields() throws {
        let record = Fixtures.record("new", ["s": .string("x")])
        let json = RecordJSON.encode(record)
        #expect(json["recordChangeTag"] == nil)
        #expect(json["created"] == nil)
        #expect(try RecordJSON.decodeRecord(try JSONValue.parse(json.serialized())) == record)
    }

    @Test func encodedShapeIsTheWebServicesDictionary() {
        let record = Fixtures.record("r", ["n": .int64(5), "b": .bytes(Array("foo".utf8)),
                                           "r": .reference(Self.ref1)], created: 10, modified: 20)
        let json = RecordJSON.encode(record)
        #expect(json.objectValue?.map(\.0) == ["recordName", "recordType", "recordChangeTag", "fields", "created",
                                              "modified", "deleted", "zoneID"])
        #expect(json["recordName"] == .string("r"))
        #expect(json["recordType"] == .string("Note"))
        #expect(json["recordChangeTag"] == .string("tag-1"))
        #expect(json["deleted"] == .bool(false))
        #expect(json["zoneID"] == .object([("zoneName", .string("Notes")),
                                           ("ownerRecordName", .string(Fixtures.zone.ownerRecordName))]))
        #expect(json["created"] == .object([("timestamp", .int(10)), ("userRecordName", .string("_creator")),
                                            ("deviceID", .string("laptop"))]))
        #expect(json["fields"]?.objectValue?.map(\.0) == ["b", "n", "r"])
        #expect(json["fields"]?["n"] == .object([("value", .int(5)), ("type", .string("INT64"))]))
        #expect(json["fields"]?["b"] == .object([("value", .string("Zm9v")), ("type", .string("BYTES"))]))
        #expect(json["fields"]?["r"]?["value"]?["action"] == .string("DELETE_SELF"))
        #expect(json["fields"]?["r"]?["type"] == .string("REFERENCE"))
    }

    @Test func typeNamesOfLists() {
        #expect(RecordJSON.encode(fields: ["x": .list(.timestamp, [])])["x"]?["type"] == .string("TIMESTAMP_LIST"))
        #expect(RecordJSON.encode(fields: ["x": .asset(Self.asset)])["x"]?["type"] == .string("ASSETID"))
        #expect(RecordJSON.encode(fields: ["x": .location(Self.fullLocation)])["x"]?["type"] == .string("LOCATION"))
    }

    @Test func deletionShape() {
        let json = RecordJSON.encodeDeletion(Fixtures.id("gone"), recordType: "Note")
        #expect(json.serialized() ==
            #"{"recordName":"gone","recordType":"Note","deleted":true,"zoneID":{"zoneName":"Notes","ownerRecordName":"_0123456789abcdef0123456789abcdef"}}"#)
        #expect(RecordJSON.encodeDeletion(Fixtures.id("gone"))["recordType"] == nil)
    }

    @Test func decodeDefaults() throws {
        let json = try JSONValue.parse(#"{"recordName":"r","recordType":"T","fields":{"n":{"value":1}}}"#)
        let record = try RecordJSON.decodeRecord(json, defaultZone: Fixtures.zone)
        #expect(record.recordID == Fixtures.id("r"))
        #expect(record.fields == ["n": .int64(1)])
        #expect(record.system == nil)
        // A zone without owner means the current user; a reference without zone the default zone.
        let zone = try RecordJSON.decodeZoneID(.object([("zoneName", .string("Z"))]))
        #expect(zone == ZoneID(zoneName: "Z", ownerRecordName: ZoneID.currentUserOwner))
        let ref = try RecordJSON.decodeValue(.object([("recordName", .string("p"))]), type: FieldTypeName(.reference), field: "f")
        #expect(ref == .reference(Reference(recordID: RecordID(recordName: "p", zoneID: ZoneID(
            zoneName: ZoneID.defaultZoneName, ownerRecordName: ZoneID.currentUserOwner)), action: .none)))
        // Type names are case-insensitive; an integral double is a valid TIMESTAMP.
        #expect(try RecordJSON.decodeValue(.double(5), type: FieldTypeName("timestamp")!, field: "f") == .timestamp(5))
        #expect(try RecordJSON.decodeValue(.int(5), type: FieldTypeName(.double), field: "f") == .double(5))
    }

    @Test func typeInference() throws {
        let fields = try RecordJSON.decodeFields(try JSONValue.parse(#"""
            {"s":{"value":"x"},"i":{"value":2},"d":{"value":2.5},"l":{"value":[1,2]},
             "loc":{"value":{"latitude":1,"longitude":2}},"ref":{"value":{"recordName":"p"}}}
            """#))
        #expect(fields["s"] == .string("x"))
        #expect(fields["i"] == .int64(2))
        #expect(fields["d"] == .double(2.5))
        #expect(fields["l"] == .list(.int64, [.int64(1), .int64(2)]))
        #expect(fields["loc"] == .location(Location(latitude: 1, longitude: 2)))
        #expect(fields["ref"]?.typeName == FieldTypeName(.reference))
    }

    /// (fields JSON, expected fragment of the reason)
    static let badFields: [(String, String)] = [
        (#"{"count":{"value":"5","type":"INT64"}}"#, "field 'count': INT64 value must be an integer, got string"),
        (#"{"count":{"value":5.5,"type":"INT64"}}"#, "field 'count': INT64 value must be an integer, got number"),
        (#"{"blob":{"value":"not base64!","type":"BYTES"}}"#, "field 'blob': BYTES value is not valid base64"),
        (#"{"blob":{"value":12,"type":"BYTES"}}"#, "field 'blob': BYTES value must be a base64 string"),
        (#"{"x":{"value":1,"type":"INTEGER"}}"#, "field 'x': unknown type \"INTEGER\""),
        (#"{"x":{"value":1,"type":7}}"#, "field 'x': unknown type 7"),
        (#"{"name":{"value":1,"type":"STRING"}}"#, "field 'name': STRING value must be a string"),
        (#"{"price":{"value":"1","type":"DOUBLE"}}"#, "field 'price': DOUBLE value must be a number"),
        (#"{"when":{"value":1.5,"type":"TIMESTAMP"}}"#, "field 'when': TIMESTAMP value must be an integer of milliseconds"),
        (#"{"tags":{"value":"a","type":"STRING_LIST"}}"#, "field 'tags': STRING_LIST value must be an array"),
        (#"{"tags":{"value":["a",1],"type":"STRING_LIST"}}"#, "field 'tags': STRING value must be a string"),
        (#"{"nums":{"value":[1,"2"]}}"#, "field 'nums': INT64 value must be an integer"),
        (#"{"ref":{"value":{"recordName":"p","action":"CASCADE"},"type":"REFERENCE"}}"#,
         "field 'ref': reference action must be NONE or DELETE_SELF"),
        (#"{"ref":{"value":"p","type":"REFERENCE"}}"#, "field 'ref': REFERENCE value must be an object with recordName"),
        (#"{"loc":{"value":{"latitude":91,"longitude":0},"type":"LOCATION"}}"#, "field 'loc': latitude must be in -90…90"),
        (#"{"loc":{"value":{"latitude":1},"type":"LOCATION"}}"#, "field 'loc': LOCATION value must be an object with latitude"),
        (#"{"file":{"value":{"fileChecksum":"ab"},"type":"ASSETID"}}"#, "field 'file': ASSETID value must be an object with fileChecksum"),
        (#"{"e":{"value":[]}}"#, "field 'e': an empty list needs a type"),
        (#"{"n":{"value":null}}"#, "field 'n': cannot infer a type from a null"),
        (#"{"n":{"value":[[1]]}}"#, "field 'n': lists of lists are not supported"),
        (#"{"n":5}"#, "field 'n' must be an object"),
        (#"{"n":{"type":"STRING"}}"#, "field 'n' must be an object"),
        (#"{"1bad":{"value":1}}"#, "field name '1bad' must start with a letter"),
        ("[]", "fields must be a JSON object, got array"),
    ]

    @Test(arguments: badFields)
    func decodeErrorsNameTheField(json: String, fragment: String) throws {
        let value = try JSONValue.parse(json)
        let error = Fixtures.error { try RecordJSON.decodeFields(value) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains(fragment) == true, "\(error?.reason ?? "no error")")
    }

    @Test(arguments: [
        ("[]", "record must be a JSON object, got array"),
        (#"{"recordType":"T"}"#, "record has no recordName"),
        (#"{"recordName":"r"}"#, "record r has no recordType"),
        (#"{"recordName":"r","recordType":"T"}"#, "record r has no zoneID"),
        (#"{"recordName":"r","recordType":"T","zoneID":{}}"#, "zoneID has no zoneName"),
        (#"{"recordName":"r","recordType":"T","zoneID":{"zoneName":"z"},"recordChangeTag":"t","created":{"timestamp":"x"}}"#,
         "timestamp must be an integer of milliseconds"),
    ])
    func recordDecodeErrors(json: String, reason: String) throws {
        let value = try JSONValue.parse(json)
        let error = Fixtures.error { try RecordJSON.decodeRecord(value) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason == reason)
    }
}

@Suite("FieldValue and FieldTypeName")
struct FieldValueTests {
    @Test func typeNamesParse() {
        #expect(FieldTypeName("STRING") == FieldTypeName(.string))
        #expect(FieldTypeName("int64_list") == FieldTypeName(.int64, isList: true))
        #expect(FieldTypeName("ASSETID")?.description == "ASSETID")
        #expect(FieldTypeName("REFERENCE_LIST")?.description == "REFERENCE_LIST")
        #expect(FieldTypeName("_LIST") == nil)
        #expect(FieldTypeName("LIST") == nil)
        #expect(FieldTypeName("STRING_LIST_LIST") == nil)
        for type in FieldType.allCases {
            #expect(FieldTypeName(type.rawValue) == FieldTypeName(type))
            #expect(FieldTypeName(type.rawValue + "_LIST") == FieldTypeName(type, isList: true))
            // The exact spelling (the fast path) and any other case agree.
            for name in [FieldTypeName(type), FieldTypeName(type, isList: true)] {
                #expect(FieldTypeName.exactly(name.description) == name)
                #expect(FieldTypeName(name.description.lowercased()) == name)
            }
        }
        #expect(FieldTypeName.exactly("string") == nil, "only the exact spelling takes the fast path")
    }

    @Test func valueTypeNamesAndSizes() {
        #expect(FieldValue.list(.double, []).typeName == FieldTypeName(.double, isList: true))
        #expect(FieldValue.timestamp(1).typeName == FieldTypeName(.timestamp))
        #expect(FieldValue.string("héllo").estimatedSize == 6)
        #expect(FieldValue.bytes([1, 2, 3]).estimatedSize == 3)
        #expect(FieldValue.list(.int64, [.int64(1), .int64(2)]).estimatedSize == 24)
        let record = Fixtures.record("ab", ["xy": .int64(1)])
        #expect(record.estimatedSize == "Note".utf8.count + 2 + 2 + 8)
    }
}
