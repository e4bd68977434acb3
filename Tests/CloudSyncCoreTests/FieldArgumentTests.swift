import CloudSyncCore
import Testing

@Suite("FieldArgument")
struct FieldArgumentTests {
    static let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_me")

    func parse(_ text: String) throws -> (String, FieldValue) {
        try FieldArgument.parse(text, defaultZone: Self.zone)
    }

    @Test func untypedIsAStringKeptAsWritten() throws {
        #expect(try parse("title=Hello") == ("title", .string("Hello")))
        #expect(try parse("title= a=b ") == ("title", .string(" a=b ")))
        #expect(try parse("title=") == ("title", .string("")))
        #expect(try parse("title={not json") == ("title", .string("{not json")))
    }

    @Test func scalarTypes() throws {
        #expect(try parse("n:INT64=-42") == ("n", .int64(-42)))
        #expect(try parse("n:int64= 7 ") == ("n", .int64(7)))
        #expect(try parse("d:DOUBLE=2.5") == ("d", .double(2.5)))
        #expect(try parse("t:TIMESTAMP=2024-01-02T03:04:05Z") == ("t", .timestamp(1_704_164_645_000)))
        #expect(try parse("t:TIMESTAMP=@1704164645") == ("t", .timestamp(1_704_164_645_000)))
        #expect(try parse("t:TIMESTAMP=1704164645123") == ("t", .timestamp(1_704_164_645_123)))
        #expect(try parse("b:BYTES=Zm9v") == ("b", .bytes(Array("foo".utf8))))
        #expect(try parse("l:LOCATION=48.5, 2.25") == ("l", .location(Location(latitude: 48.5, longitude: 2.25))))
        let sum = String(repeating: "A", count: 64)
        #expect(try parse("a:ASSETID=\(sum):10") == ("a", .asset(AssetReference(checksum: sum.lowercased(), size: 10))))
    }

    @Test func references() throws {
        #expect(try parse("r:REFERENCE=parent") ==
            ("r", .reference(Reference(recordID: RecordID(recordName: "parent", zoneID: Self.zone)))))
        #expect(try parse("r:REFERENCE=parent@Other#DELETE_SELF") ==
            ("r", .reference(Reference(recordID: RecordID(recordName: "parent",
                                                          zoneID: ZoneID(zoneName: "Other", ownerRecordName: "_me")),
                                       action: .deleteSelf))))
        #expect(try parse("r:REFERENCE=p#delete-self").1 ==
            .reference(Reference(recordID: RecordID(recordName: "p", zoneID: Self.zone), action: .deleteSelf)))
    }

    @Test func lists() throws {
        #expect(try parse("tags:STRING_LIST=a, b,c") == ("tags", .list(.string, [.string("a"), .string("b"), .string("c")])))
        #expect(try parse("n:INT64_LIST=1,2") == ("n", .list(.int64, [.int64(1), .int64(2)])))
        #expect(try parse("n:INT64_LIST=") == ("n", .list(.int64, [])))
        #expect(try parse("tags:STRING_LIST=[\"a,b\",\"c\"]") == ("tags", .list(.string, [.string("a,b"), .string("c")])))
    }

    @Test func jsonForm() throws {
        #expect(try parse(#"r:REFERENCE={"recordName":"p","action":"DELETE_SELF"}"#).1 ==
            .reference(Reference(recordID: RecordID(recordName: "p", zoneID: ZoneID(
                zoneName: ZoneID.defaultZoneName, ownerRecordName: ZoneID.currentUserOwner)), action: .deleteSelf)))
    }

    @Test(arguments: [
        ("novalue", "must look like name=value"),
        ("n:NUMBER=1", "field 'n': unknown type 'NUMBER'"),
        ("1n=1", "field name '1n'"),
        ("n:INT64=1.5", "field 'n': '1.5' is not an INT64"),
        ("n:INT64=99999999999999999999", "is not an INT64"),
        ("d:DOUBLE=abc", "field 'd': 'abc' is not a finite decimal DOUBLE"),
        ("d:DOUBLE=inf", "is not a finite decimal DOUBLE"),
        ("t:TIMESTAMP=yesterday", "field 't': 'yesterday' is not a TIMESTAMP"),
        ("b:BYTES=***", "field 'b': '***' is not base64 BYTES"),
        ("l:LOCATION=91,0", "is not a LOCATION"),
        ("l:LOCATION=1", "is not a LOCATION"),
        ("a:ASSETID=abc:1", "is not an ASSETID"),
        ("r:REFERENCE=p#CASCADE", "is not a REFERENCE action"),
        ("r:REFERENCE=has space", "record name 'has space'"),
        ("n:INT64_LIST=1,x", "field 'n': 'x' is not an INT64"),
        ("n:INT64_LIST=[1,", "field 'n': invalid JSON"),
    ])
    func errorsNameTheField(text: String, fragment: String) {
        let error = Fixtures.error { try parse(text) }
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains(fragment) == true, "\(error?.reason ?? "no error")")
    }
}

@Suite("FieldArgument: strict values")
struct FieldArgumentStrictTests {
    let zone = ZoneID(zoneName: "Z", ownerRecordName: "_o")

    @Test func hexFloatsAreNotDoubles() {
        #expect(throws: CloudError.self) { _ = try FieldArgument.parse("d:DOUBLE=0x1p3", defaultZone: zone) }
        #expect(throws: CloudError.self) { _ = try FieldArgument.parse("d:DOUBLE=nan", defaultZone: zone) }
    }

    @Test func referenceZoneNamesAreValidated() {
        #expect(throws: CloudError.self) { _ = try FieldArgument.parse("r:REFERENCE=p@", defaultZone: zone) }
        #expect(throws: CloudError.self) { _ = try FieldArgument.parse("r:REFERENCE=p@bad zone", defaultZone: zone) }
    }
}
