import CloudSyncCore

/// A query's continuation marker (keyset paging): the sort key of the last record of a page,
/// so the next page starts strictly after it, whatever was inserted or deleted in between.
///
/// Encoded as base64url of: version 2, kind `query`, the store epoch, the zone incarnation, a
/// fingerprint of the query (type, predicate, sort), the key values (as a fields dictionary named
/// `v0`, `v1`… by the positions of the values present), the record name, and an FNV-1a checksum of
/// everything before it, so a damaged marker is told apart from a valid one. Markers of
/// version 1 (an offset) are refused: the query starts again.
public struct QueryContinuation: Sendable, Equatable {
    static let version: UInt8 = 2

    public var epoch: UInt64
    public var zoneIncarnation: Int64
    public var fingerprint: UInt64
    public var key: QuerySortKey

    public init(epoch: UInt64, zoneIncarnation: Int64, fingerprint: UInt64, key: QuerySortKey) {
        self.epoch = epoch
        self.zoneIncarnation = zoneIncarnation
        self.fingerprint = fingerprint
        self.key = key
    }

    /// The fingerprint of a query: a marker is only good for the query that made it.
    public static func fingerprint(of query: RecordQuery) -> UInt64 {
        let text = [query.recordType, query.predicate.description, query.sort.map(\.description).joined(separator: ",")]
            .joined(separator: "\u{0}")
        return fnv1a(Array(text.utf8))
    }

    /// The marker's text.
    public func encoded() -> String {
        var bytes: [UInt8] = [Self.version, TokenPayload.Kind.query.rawValue]
        ChangeTokenCodec.append(epoch, to: &bytes)
        ChangeTokenCodec.append(UInt64(bitPattern: zoneIncarnation), to: &bytes)
        ChangeTokenCodec.append(fingerprint, to: &bytes)
        var present: [String: FieldValue] = [:]
        for (index, value) in key.values.enumerated() { if let value { present["v\(index)"] = value } }
        bytes.append(UInt8(truncatingIfNeeded: key.values.count))
        Self.appendChunk(Array(key.recordName.utf8), to: &bytes)
        Self.appendChunk(Array(RecordJSON.fieldsText(present).utf8), to: &bytes)
        ChangeTokenCodec.append(Self.fnv1a(bytes), to: &bytes)
        return Base64.encode(bytes, url: true, padding: false)
    }

    /// Decodes a marker. Anything but an intact marker of this version is `invalidArguments`
    /// with a message that says which.
    public static func decode(_ text: String) throws(CloudError) -> QueryContinuation {
        let quoted = NameRules.quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text)
        guard let bytes = Base64.decode(text), bytes.count >= 2 else {
            throw CloudError(.invalidArguments, "continuation marker \(quoted) is malformed")
        }
        guard bytes[1] == TokenPayload.Kind.query.rawValue else {
            throw CloudError(.invalidArguments, "continuation marker \(quoted) is a change token, not a query's marker")
        }
        guard bytes[0] == version else {
            throw CloudError(.invalidArguments, bytes[0] == ChangeTokenCodec.version
                ? "continuation marker \(quoted) is an offset marker of an older server; run the query again from its first page"
                : "continuation marker \(quoted) is malformed")
        }
        guard bytes.count >= 2 + 24 + 1 + 8,
              ChangeTokenCodec.read(bytes, bytes.count - 8) == fnv1a(Array(bytes[..<(bytes.count - 8)])) else {
            throw CloudError(.invalidArguments, "continuation marker \(quoted) is damaged (its checksum does not match)")
        }
        let body = Array(bytes[..<(bytes.count - 8)])
        var offset = 27
        let count = Int(body[26])
        guard let nameBytes = chunk(body, &offset), let fieldBytes = chunk(body, &offset), offset == body.count,
              let fields = try? RecordJSON.decodeFields(bytes: fieldBytes) else {
            throw CloudError(.invalidArguments, "continuation marker \(quoted) is malformed")
        }
        let values = (0..<count).map { fields["v\($0)"] }
        return QueryContinuation(epoch: ChangeTokenCodec.read(body, 2),
                                 zoneIncarnation: Int64(bitPattern: ChangeTokenCodec.read(body, 10)),
                                 fingerprint: ChangeTokenCodec.read(body, 18),
                                 key: QuerySortKey(values: values, recordName: String(decoding: nameBytes, as: UTF8.self)))
    }

    static func appendChunk(_ chunk: [UInt8], to bytes: inout [UInt8]) {
        let count = UInt32(truncatingIfNeeded: chunk.count)
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: count >> UInt32(shift))) }
        bytes += chunk
    }

    static func chunk(_ bytes: [UInt8], _ offset: inout Int) -> [UInt8]? {
        guard offset + 4 <= bytes.count else { return nil }
        var count = 0
        for index in 0..<4 { count = count << 8 | Int(bytes[offset + index]) }
        offset += 4
        guard count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// 64-bit FNV-1a.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
