import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// The pushed-down part of a local-store query (issue 16): never loses a match, and spares the
/// decoding of the records it rules out (counted, not timed).
@Suite("Local store query prefilter")
struct LocalQueryPrefilterTests {
    let container = "iCloud.com.example.Prefilter"

    /// 300 records whose fields mix types under the same names, plus odd strings.
    func makeStore() throws -> (DeviceStore, TemporaryDirectory) {
        let dir = TemporaryDirectory("prefilter")
        let store = try DeviceStore(path: dir.file("device.sqlite"))
        try store.transaction {
            for i in 0..<300 {
                var fields: [String: FieldValue] = ["title": .string("title \(i % 50)"), "n": .int64(Int64(i % 40))]
                switch i % 6 {
                case 0: fields["v"] = .int64(5)
                case 1: fields["v"] = .string("5")
                case 2: fields["v"] = .double(5)
                case 3: fields["v"] = .timestamp(5)
                case 4: fields["v"] = .string("é\u{301}x")
                default: break
                }
                if i % 7 == 0 { fields["n"] = .double(Double(i % 40) + 0.5) }
                if i % 11 == 0 { fields["title"] = .int64(Int64(i)) }
                if i % 13 == 0 { fields["odd"] = .string("a\"b\\c") }
                try store.put(container: container, zone: "Z\(i % 3)", name: "r\(String(i + 1000))", type: "T", fields: fields,
                              device: "d", now: 1)
            }
        }
        return (store, dir)
    }

    func records(_ store: DeviceStore, _ predicate: Predicate, pushed: Bool) throws -> (matches: [String], visited: Int) {
        var matches: [String] = [], visited = 0
        try store.forEachLocalRecord(container: container, type: "T", prefilter: pushed ? LocalQueryPrefilter(predicate) : nil) {
            visited += 1
            let record = Record(recordID: RecordID(recordName: $0.recordName, zoneID: ZoneID(zoneName: $0.zoneName, ownerRecordName: ZoneID.currentUserOwner)),
                                recordType: $0.recordType, fields: $0.fields)
            if predicate.evaluate(record) { matches.append($0.recordName) }
            return true
        }
        return (matches, visited)
    }

    @Test(arguments: [
        "v == '5'", "v == 5", "v == %@", "v != 5", "v < '6'", "v >= 5", "v > 4", "v BEGINSWITH 'é'", "v BEGINSWITH %@",
        "v == 'é\u{301}x'", "title == 'title 7'", "title BEGINSWITH 'title 1'", "title < 'title 2'", "title == 22",
        "n == 3", "n < 3", "n >= 39", "n == 3.5", "n <= %@", "recordName == 'r1010'", "recordName BEGINSWITH 'r11'",
        "recordName == %@", "NOT n == 3", "n IN {1, 2}", "v == 5 AND n > 10 AND title BEGINSWITH 'title'",
        "TRUEPREDICATE", "missing == 'x'", "missing == 1", "modificationDate > 0", "odd == %@", "odd BEGINSWITH 'a\\\"'",
    ])
    func pushedDownQueriesFindTheSameRecords(_ text: String) throws {
        let (store, dir) = try makeStore()
        _ = dir
        let predicate = try PredicateParser.parse(text, arguments: text.contains("%@") ? ["5"] : [])
        let plain = try records(store, predicate, pushed: false)
        let pushed = try records(store, predicate, pushed: true)
        #expect(pushed.matches == plain.matches, "\(text)")
        #expect(plain.visited == 300)
        #expect(pushed.visited >= pushed.matches.count)
    }

    @Test func recordsRuledOutAreNotDecoded() throws {
        let (store, dir) = try makeStore()
        _ = dir
        for text in ["n == 3", "title == 'title 7'", "recordName == 'r1010'", "title BEGINSWITH 'title 4' AND n == 9"] {
            let predicate = try PredicateParser.parse(text, arguments: [])
            let plain = try records(store, predicate, pushed: false)
            let pushed = try records(store, predicate, pushed: true)
            #expect(pushed.matches == plain.matches && !plain.matches.isEmpty, "\(text)")
            // Only the matches and the records whose field has another type (at most 43 here)
            // are decoded, of 300.
            #expect(pushed.visited <= plain.matches.count + 43, "\(text): \(pushed.visited) decoded of 300")
        }
        #expect(LocalQueryPrefilter(try PredicateParser.parse("NOT n == 3", arguments: [])).isEmpty)
    }
}
