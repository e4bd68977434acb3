/// One-dimensional arrays as binary parameters (`array_recv`'s format): no quoting or escaping
/// on either side, where a text literal (`{"a","b\\"c"}`) costs a pass over every byte to
/// escape it here and to parse it on the server.
extension PostgresValue {
    /// A `text[]` of `values`. Throws `.invalidArgument` for a value holding a NUL byte (a
    /// PostgreSQL text cannot).
    public static func textArray(_ values: some Collection<String>) throws(PostgresError) -> PostgresValue {
        var bytes = arrayHeader(count: values.count, elementType: PostgresType.text)
        for value in values {
            let start = bytes.count
            bytes.append(contentsOf: [0, 0, 0, 0])
            bytes.append(contentsOf: value.utf8)
            let length = bytes.count - start - 4
            guard length <= Int(Int32.max) else { throw .invalidArgument("an array element is too large") }
            guard !bytes[(start + 4)...].contains(0) else {
                throw .invalidArgument("an array element contains a NUL byte (PostgreSQL text cannot hold one)")
            }
            withUnsafeBytes(of: Int32(length).bigEndian) { bytes.replaceSubrange(start..<(start + 4), with: $0) }
        }
        return .binary(type: PostgresType.textArray, bytes: bytes)
    }

    /// A `bigint[]` of `values`.
    public static func int64Array(_ values: some Collection<Int64>) -> PostgresValue {
        var bytes = arrayHeader(count: values.count, elementType: PostgresType.int8)
        bytes.reserveCapacity(bytes.count + values.count * 12)
        for value in values {
            appendBigEndian(Int32(8), to: &bytes)
            appendBigEndian(value, to: &bytes)
        }
        return .binary(type: PostgresType.int8Array, bytes: bytes)
    }

    /// A `boolean[]` of `values`.
    public static func boolArray(_ values: some Collection<Bool>) -> PostgresValue {
        var bytes = arrayHeader(count: values.count, elementType: PostgresType.bool)
        for value in values {
            appendBigEndian(Int32(1), to: &bytes)
            bytes.append(value ? 1 : 0)
        }
        return .binary(type: PostgresType.boolArray, bytes: bytes)
    }

    /// Dimensions (0 for an empty array, else 1), no NULLs, the element type, and for one
    /// dimension its length and lower bound 1.
    static func arrayHeader(count: Int, elementType: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        appendBigEndian(Int32(count == 0 ? 0 : 1), to: &bytes)
        appendBigEndian(Int32(0), to: &bytes)
        appendBigEndian(elementType, to: &bytes)
        if count > 0 {
            appendBigEndian(Int32(count), to: &bytes)
            appendBigEndian(Int32(1), to: &bytes)
        }
        return bytes
    }

    static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
