/// The little of the protobuf wire format Google Authenticator's export needs: varints
/// (including 10-byte negative ones), length-delimited fields, and skipping the rest.
struct ProtobufReader {
    enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    /// One field: its number and its value (a varint, or the bytes of a length-delimited one).
    enum Value {
        case varint(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed
    }

    let bytes: ArraySlice<UInt8>
    var position: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var atEnd: Bool { position >= bytes.endIndex }

    /// A base-128 varint of up to 10 bytes.
    mutating func varint() throws(OTPError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.endIndex else { throw .invalidFile("truncated protobuf varint") }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw .invalidFile("protobuf varint longer than 10 bytes") }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// The next field, or nil at the end.
    mutating func next() throws(OTPError) -> (field: UInt64, value: Value)? {
        guard !atEnd else { return nil }
        let key = try varint()
        guard let wire = WireType(rawValue: key & 7) else { throw .invalidFile("unknown protobuf wire type \(key & 7)") }
        let field = key >> 3
        guard field > 0 else { throw .invalidFile("protobuf field number 0") }
        switch wire {
        case .varint:
            return (field, .varint(try varint()))
        case .lengthDelimited:
            let length = try varint()
            guard length <= UInt64(bytes.endIndex - position) else { throw .invalidFile("truncated protobuf field \(field)") }
            let start = position
            position += Int(length)
            return (field, .bytes(bytes[start..<position]))
        case .fixed64, .fixed32:
            let size = wire == .fixed64 ? 8 : 4
            guard size <= bytes.endIndex - position else { throw .invalidFile("truncated protobuf field \(field)") }
            position += size
            return (field, .fixed)
        }
    }
}

/// Writes the same subset (for exports and test fixtures).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    mutating func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A varint field; negative numbers take 10 bytes, as protobuf writes int32/int64.
    mutating func field(_ number: UInt64, int value: Int64) {
        varint(number << 3)
        varint(UInt64(bitPattern: value))
    }

    mutating func field(_ number: UInt64, bytes value: [UInt8]) {
        varint(number << 3 | 2)
        varint(UInt64(value.count))
        bytes += value
    }

    mutating func field(_ number: UInt64, string value: String) {
        field(number, bytes: Array(value.utf8))
    }
}
