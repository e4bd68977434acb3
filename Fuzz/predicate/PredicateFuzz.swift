import CloudSyncCore

// libFuzzer target: the predicate language (`record query --where`, `store query`, query
// subscriptions). Input: the predicate text, then `%@`/`%K` arguments, separated by NUL bytes.
// An input starting with byte 1 is a nesting: a 16-bit little-endian count, then
// `prefix NUL middle NUL suffix`, giving the text prefix×count + middle + suffix×count (so a
// few bytes reach the deep nestings a recursive parser must refuse).
// Checks: no crash; a parsed predicate evaluates on a record holding every field type; its
// description parses back to a predicate with the same description (the documented round trip).

/// A record with one field of each type, so comparisons reach every conversion.
let sampleRecord = Record(
    recordID: RecordID(recordName: "r1", zoneID: ZoneID(zoneName: "Notes", ownerRecordName: ZoneID.currentUserOwner)),
    recordType: "Note",
    fields: [
        "title": .string("Hello"), "a": .int64(1), "n": .int64(-7), "d": .double(2.5),
        "when": .timestamp(1_700_000_000_000), "blob": .bytes([0, 1, 2]),
        "ref": .reference(Reference(recordID: RecordID(recordName: "r2", zoneID: ZoneID(zoneName: "Notes",
                                                                                 ownerRecordName: ZoneID.currentUserOwner)))),
        "place": .location(Location(latitude: 48.85, longitude: 2.35)),
        "tags": .list(.string, [.string("x"), .string("y")]), "nums": .list(.int64, [.int64(1), .int64(2)]),
    ])

@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text: String, arguments: [String]
    if bytes.count >= 3, bytes[0] == 1 {
        let count = Int(bytes[1]) | Int(bytes[2]) << 8
        let parts = bytes[3...].split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false).map(Array.init)
        let prefix = parts[0], middle = parts.count > 1 ? parts[1] : [], suffix = parts.count > 2 ? parts[2] : []
        guard (prefix.count + suffix.count) * count <= 1 << 17 else { return -1 }
        var nested: [UInt8] = []
        for _ in 0..<count { nested += prefix }
        nested += middle
        for _ in 0..<count { nested += suffix }
        text = String(decoding: nested, as: UTF8.self)
        arguments = []
    } else {
        let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
        text = parts.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
        arguments = parts.dropFirst().map { String(decoding: $0, as: UTF8.self) }
    }
    guard let predicate = try? PredicateParser.parse(text, arguments: arguments) else { return 0 }
    _ = predicate.evaluate(sampleRecord)
    _ = predicate.referencedFields
    let written = predicate.description
    guard let again = try? PredicateParser.parse(written) else {
        fatalError("the description of a parsed predicate does not parse: \(written)")
    }
    if again.description != written {
        fatalError("the description does not round-trip: \(written) -> \(again.description)")
    }
    return 0
}
