import CPostgres

/// Parameters into C arrays and libpq's results out to Swift values.
extension PostgresConnection {
    /// Calls `body` with libpq's parameter arrays (values, lengths, formats) for `parameters`:
    /// every value in one buffer, text NUL-terminated, bytes as binary (format 1), NULL as a
    /// null pointer. The pointers are valid only during `body`.
    func withParameters<R>(_ parameters: [PostgresValue],
                           _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?)
                               -> R) throws(PostgresError) -> R {
        var buffer: [UInt8] = []
        var offsets: [Int?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for (index, parameter) in parameters.enumerated() {
            var binary = false
            let bytes: [UInt8]?
            switch parameter {
            case .null: bytes = nil
            case .bool(let value): bytes = Array((value ? "t" : "f").utf8)
            case .int64(let value): bytes = Array(String(value).utf8)
            case .double(let value):
                guard value.isFinite else { bytes = Array((value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity").utf8); break }
                bytes = Array("\(value)".utf8)
            case .text(let value):
                guard !value.utf8.contains(0) else {
                    throw .invalidArgument("parameter $\(index + 1) contains a NUL byte (PostgreSQL text cannot hold one)")
                }
                bytes = Array(value.utf8)
            case .bytes(let value), .binary(_, let value):
                guard value.count <= Int(Int32.max) else { throw .invalidArgument("parameter $\(index + 1) is too large") }
                bytes = value
                binary = true
            }
            if let bytes {
                offsets.append(buffer.count)
                buffer.append(contentsOf: bytes)
                buffer.append(0)
                lengths.append(Int32(bytes.count))
            } else {
                offsets.append(nil)
                lengths.append(0)
            }
            formats.append(binary ? 1 : 0)
        }
        return buffer.withUnsafeBufferPointer { raw in
            let base = UnsafeRawPointer(raw.baseAddress)
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                offset.flatMap { base?.advanced(by: $0).assumingMemoryBound(to: CChar.self) }
            }
            return pointers.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }

    /// The rows of a result, which is freed; a failed result becomes the matching error.
    func rows(of result: OpaquePointer?) throws(PostgresError) -> PostgresRows {
        guard let result else { throw lostOrFailed(nil) }
        defer { library.clear(result) }
        let status = library.resultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            throw lostOrFailed(result)
        }
        let rowCount = Int(library.rowCount(result))
        let columnCount = Int(library.columnCount(result))
        var columns: [String] = []
        var types: [UInt32] = []
        columns.reserveCapacity(columnCount)
        for column in 0..<Int32(columnCount) {
            columns.append(library.columnName(result, column).map { String(cString: $0) } ?? "")
            types.append(library.columnType(result, column))
        }
        var rows: [PostgresRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [PostgresValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if library.isNull(result, row, column) != 0 {
                    values.append(.null)
                    continue
                }
                let length = Int(library.length(result, row, column))
                guard let pointer = library.value(result, row, column) else {
                    values.append(.null)
                    continue
                }
                let text = UnsafeRawBufferPointer(start: pointer, count: length)
                values.append(try PostgresConnection.decode(text, type: types[Int(column)], row: Int(row), column: Int(column)))
            }
            rows.append(PostgresRow(values))
        }
        let affected = library.commandTuples(result).map { String(cString: $0) }.flatMap { Int($0) } ?? 0
        return PostgresRows(columns: columns, rows: rows, affectedRows: affected)
    }

    /// One value in PostgreSQL's text output, typed by its column's type.
    static func decode(_ text: UnsafeRawBufferPointer, type: UInt32, row: Int, column: Int) throws(PostgresError)
        -> PostgresValue {
        func string() -> String { String(decoding: text, as: UTF8.self) }
        switch type {
        case PostgresType.bool:
            return .bool(text.first == UInt8(ascii: "t"))
        case PostgresType.int8, PostgresType.int4, PostgresType.int2, PostgresType.oid:
            guard let value = Int64(string()) else {
                throw .unexpectedValue("row \(row) column \(column): \"\(string())\" is not an integer")
            }
            return .int64(value)
        case PostgresType.float4, PostgresType.float8:
            guard let value = Double(string()) else {
                throw .unexpectedValue("row \(row) column \(column): \"\(string())\" is not a number")
            }
            return .double(value)
        case PostgresType.bytea:
            guard let bytes = decodeHex(text) else {
                throw .unexpectedValue("row \(row) column \(column): bytea not in hex output (bytea_output = 'hex')")
            }
            return .bytes(bytes)
        default:
            return .text(string())
        }
    }

    /// bytea's hex output, `\x` then two hex digits a byte.
    static func decodeHex(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
            return nil
        }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x61...0x66: byte - 0x61 + 10
            case 0x41...0x46: byte - 0x41 + 10
            default: nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: (text.count - 2) / 2)
        var index = 2
        for position in bytes.indices {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            bytes[position] = high << 4 | low
            index += 2
        }
        return bytes
    }

    /// The error for a failed result (nil: libpq could not even make one): the server's
    /// SQLSTATE and message, or `.connectionLost` when the connection is gone.
    func lostOrFailed(_ result: OpaquePointer?) -> PostgresError {
        let connectionMessage = PostgresError.oneLine(library.errorMessage(handle).map { String(cString: $0) } ?? "")
        if let result,
           let state = library.resultErrorField(result, Int32(UInt8(ascii: "C"))).map({ String(cString: $0) }) {
            let primary = library.resultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            let error = PostgresError.server(sqlState: state, message: PostgresError.oneLine(primary ?? connectionMessage))
            if library.status(handle) == CONNECTION_BAD { return .connectionLost(error.description) }
            return error
        }
        if library.status(handle) == CONNECTION_BAD {
            return .connectionLost(connectionMessage.isEmpty ? "the server closed the connection" : connectionMessage)
        }
        let message = result.flatMap { library.resultErrorMessage($0) }.map { String(cString: $0) } ?? connectionMessage
        return .connectionFailed(PostgresError.oneLine(message))
    }
}
