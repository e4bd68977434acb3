/// The `fields` dictionary as stored text, written and read without the `JSONValue` tree in
/// between: every record pushed, pulled, fetched or cached goes through these two, so they are
/// the common cases of `encode(fields:).serialized()` and `decodeFields(JSONValue.parse(…))`
/// done in one pass. Both give exactly what those give (tests compare them on every field type
/// and on malformed input).
extension RecordJSON {
    /// `encode(fields:).serialized()`, byte for byte: fields sorted by name, each
    /// `{"value":…,"type":"…"}`.
    public static func fieldsText(_ fields: [String: FieldValue]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64 + fields.count * 48)
        writeFields(fields, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `fieldsText(fields)` appended to `out`.
    static func writeFields(_ fields: [String: FieldValue], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (index, (name, value)) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, to: &out)
            out.append(contentsOf: #":{"value":"#.utf8)
            writeValue(value, to: &out)
            out.append(contentsOf: #","type":"#.utf8)
            JSONValue.writeString(value.typeName.description, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `encodeValue(value)` written compactly; the scalar types without building a JSONValue.
    static func writeValue(_ value: FieldValue, to out: inout [UInt8]) {
        switch value {
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .int64(let i), .timestamp(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: JSONValue.format(d).utf8)
        case .bytes(let b), .encryptedBytes(let b):
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: Base64.encode(b).utf8)
            out.append(UInt8(ascii: "\""))
        case .reference, .location, .asset, .list: encodeValue(value).writeCompact(to: &out)
        }
    }

    /// `decodeFields(JSONValue.parse(bytes: bytes))`: the same fields, or the same error (a
    /// `JSONParseError` or a `CloudError`). The stored shape (an object of
    /// `{"value": …, "type": "…"}` objects) is decoded in one pass; anything else, malformed
    /// input included, takes the general path, which gives the error.
    public static func decodeFields(bytes: [UInt8]) throws -> [String: FieldValue] {
        var parser = JSONByteParser(bytes: bytes)
        if let fields = try? parser.parseStoredFields() { return fields }
        return try decodeFields(JSONValue.parse(bytes: bytes))
    }
}

extension JSONByteParser {
    /// Why the one-pass decoding gave up (the caller then takes the general path).
    struct NotStoredShape: Error {}

    /// The fields of a stored `fields` object, decoded as `RecordJSON.decodeFields` does. Throws
    /// on anything unusual (a field that is not an object, a repeated key, an unknown type,
    /// malformed JSON): the general path then decides, with its own messages.
    mutating func parseStoredFields() throws -> [String: FieldValue] {
        skipWhitespace()
        let fields = try parseStoredFieldsObject()
        skipWhitespace()
        guard index == bytes.count else { throw NotStoredShape() }
        return fields
    }

    /// The `fields` object at the parser's position (from its `{` to its `}`), as
    /// `parseStoredFields` decodes it.
    mutating func parseStoredFieldsObject() throws -> [String: FieldValue] {
        // Eight buckets at once (room for six fields), instead of growing through two and four:
        // most records have a few fields.
        var fields: [String: FieldValue] = Dictionary(minimumCapacity: 6)
        try parseMembers { parser, name in
            // One hash of the name: a repeated name finds the value stored before it.
            guard fields.updateValue(try parser.parseStoredField(named: name), forKey: name) == nil else {
                throw NotStoredShape()
            }
        }
        return fields
    }

    /// One `{"value": …, "type": "…"}` entry (other keys are read and ignored, as the general
    /// path does).
    private mutating func parseStoredField(named name: String) throws -> FieldValue {
        var value: JSONValue?
        var typeText: String?
        // The two keys every stored field has are recognised on their bytes, without a String.
        try parseMembers(key: { try $0.parseStoredFieldKey() }) { parser, key in
            switch key {
            case .value:
                guard value == nil else { throw NotStoredShape() }
                value = try parser.parseValue(depth: 2)
            case .type:
                guard typeText == nil, parser.peek(UInt8(ascii: "\"")) else { throw NotStoredShape() }
                typeText = try parser.parseString()
            case .other:
                _ = try parser.parseValue(depth: 2)
            }
        }
        guard let value else { throw NotStoredShape() }
        try NameRules.validateIdentifier(name, kind: "field name")
        let type: FieldTypeName
        if let typeText {
            guard let parsed = FieldTypeName(typeText) else { throw NotStoredShape() }
            type = parsed
        } else {
            type = try RecordJSON.inferType(value, field: name)
        }
        return try RecordJSON.decodeValue(value, type: type, field: name)
    }

    /// Walks an object from its `{` to its `}`: for each member reads the key and the `:`, and
    /// calls `member` with the parser at the value, which `member` must read.
    mutating func parseMembers(_ member: (inout JSONByteParser, String) throws -> Void) throws {
        try parseMembers(key: { try $0.parseString() }, member)
    }

    /// `parseMembers` with each key read by `readKey` (at its opening quote).
    @inline(__always)
    mutating func parseMembers<Key>(key readKey: (inout JSONByteParser) throws -> Key,
                                    _ member: (inout JSONByteParser, Key) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; return }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw NotStoredShape() }
            let key = try readKey(&self)
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            try member(&self, key)
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    /// A member key of a stored field, as `parseStoredField` tells them apart.
    enum StoredFieldKey {
        case value, type, other

        /// `"value"` and `"type"` with their quotes, as they are written.
        static let valueKey = Array(#""value""#.utf8), typeKey = Array(#""type""#.utf8)
    }

    /// The key at the position: `"value"` and `"type"` matched on their bytes, any other read
    /// as a string. Spelled with escapes, "value" or "type" is left to the general path.
    mutating func parseStoredFieldKey() throws -> StoredFieldKey {
        if skipKey(StoredFieldKey.valueKey) { return .value }
        if skipKey(StoredFieldKey.typeKey) { return .type }
        let other = try parseString()
        guard other != "value" && other != "type" else { throw NotStoredShape() }
        return .other
    }

    /// Steps over `key` (a quoted key, quotes included) when the bytes at the position are
    /// exactly it; false, the position unchanged, otherwise.
    mutating func skipKey(_ key: [UInt8]) -> Bool {
        guard index + key.count <= bytes.count else { return false }
        for offset in key.indices where bytes[index + offset] != key[offset] { return false }
        index += key.count
        return true
    }

    mutating func expect(_ byte: UInt8) throws {
        guard peek(byte) else { throw NotStoredShape() }
        index += 1
    }
}
