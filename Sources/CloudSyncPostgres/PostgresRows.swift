/// The rows a statement returned, copied out of libpq's result (which is freed at once).
public struct PostgresRows: Sendable, Hashable {
    /// The column names, in order.
    public var columns: [String]
    public var rows: [PostgresRow]
    /// Rows inserted, updated or deleted by the command (`PQcmdTuples`), 0 when it says nothing.
    public var affectedRows: Int

    public init(columns: [String] = [], rows: [PostgresRow] = [], affectedRows: Int = 0) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The first row, if any.
    public var first: PostgresRow? { rows.first }
}

/// One row: its values by column position.
public struct PostgresRow: Sendable, Hashable {
    public var values: [PostgresValue]

    public init(_ values: [PostgresValue]) { self.values = values }

    /// The value at `column` (`.null` past the end).
    public subscript(column: Int) -> PostgresValue {
        values.indices.contains(column) ? values[column] : .null
    }

    /// The integer at `column`; `.unexpectedValue` when it is something else.
    public func int64(_ column: Int) throws(PostgresError) -> Int64 {
        guard let value = self[column].int64 else { throw mismatch(column, "an integer") }
        return value
    }

    /// The text at `column`; `.unexpectedValue` when it is something else.
    public func text(_ column: Int) throws(PostgresError) -> String {
        guard let value = self[column].text else { throw mismatch(column, "text") }
        return value
    }

    /// The bytes at `column`; `.unexpectedValue` when it is something else.
    public func bytes(_ column: Int) throws(PostgresError) -> [UInt8] {
        guard let value = self[column].bytes else { throw mismatch(column, "bytea") }
        return value
    }

    private func mismatch(_ column: Int, _ expected: String) -> PostgresError {
        .unexpectedValue("column \(column) holds \(self[column]), not \(expected)")
    }
}
