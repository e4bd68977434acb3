import CloudSyncCore
import CloudSyncSQLite

/// SQL conditions that let SQLite skip, without decoding their fields, local records a
/// predicate cannot match (issue 16: `store query` over 100k records). Conservative: every
/// record the predicate matches passes (it keeps a superset); the predicate itself still
/// decides for each record that passes, so results never depend on what is pushed down.
///
/// Pushed down, from the top-level `AND` of the predicate only:
/// - `recordName` `==` / `BEGINSWITH` a string: the `record_name` column;
/// - a field compared (`==`, `<`, `<=`, `>`, `>=`, `BEGINSWITH`) with a string or `%@` text:
///   records whose field is a STRING holding another value are skipped (a field of another
///   type, or a missing one, is left to the predicate);
/// - a field compared with an integer literal: likewise for INT64 fields.
/// STRING order is Unicode scalar order in both (UTF-8 bytes in SQLite), INT64 is exact.
/// Everything else (`NOT`, `!=`, `IN`, `CONTAINS`, decimals, dates, system dates) is not pushed.
public struct LocalQueryPrefilter {
    /// `AND (…)` clauses to append to a WHERE over `local_records`, or "".
    public private(set) var sql = ""
    /// Their parameters, in order.
    public private(set) var arguments: [any SQLiteBindable] = []

    /// Conditions derived from `predicate`.
    public init(_ predicate: Predicate) {
        for item in Self.conjuncts(predicate) {
            guard case .comparison(let key, let op, let value) = item else { continue }
            add(key, op, value)
        }
    }

    /// Whether nothing was pushed down.
    public var isEmpty: Bool { sql.isEmpty }

    static func conjuncts(_ predicate: Predicate) -> [Predicate] {
        switch predicate {
        case .and(let items): items.flatMap(conjuncts)
        default: [predicate]
        }
    }

    /// The SQL operator of an ordered comparison.
    static func sqlOperator(_ op: PredicateOperator) -> String? {
        switch op {
        case .equal: "="
        case .less: "<"
        case .lessOrEqual: "<="
        case .greater: ">"
        case .greaterOrEqual: ">="
        default: nil
        }
    }

    /// A field name that is safe inside a quoted JSON path key.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 < 0x7F }
    }

    mutating func add(_ key: String, _ op: PredicateOperator, _ value: PredicateValue) {
        if key == PredicateKeys.selfKey || (PredicateKeys.all.contains(key) && key != PredicateKeys.recordName) { return }
        let text: String?
        switch value {
        case .string(let s), .argument(let s): text = s
        default: text = nil
        }
        if key == PredicateKeys.recordName {
            guard let text else { return }
            if op == .equal {
                clause("record_name = ?", [text])
            } else if op == .beginsWith {
                clause("substr(record_name, 1, ?) = ?", [Int64(text.unicodeScalars.count), text])
            }
            return
        }
        guard Self.isPlainName(key) else { return }
        let typePath = "$.\"\(key)\".type", valuePath = "$.\"\(key)\".value"
        if let text {
            if op == .beginsWith {
                clause("json_extract(fields, ?) IS NOT 'STRING' OR substr(json_extract(fields, ?), 1, ?) = ?",
                       [typePath, valuePath, Int64(text.unicodeScalars.count), text])
            } else if let sqlOp = Self.sqlOperator(op) {
                clause("json_extract(fields, ?) IS NOT 'STRING' OR json_extract(fields, ?) \(sqlOp) ?", [typePath, valuePath, text])
            }
        } else if case .int64(let number) = value, let sqlOp = Self.sqlOperator(op) {
            clause("json_extract(fields, ?) IS NOT 'INT64' OR json_extract(fields, ?) \(sqlOp) ?", [typePath, valuePath, number])
        }
    }

    mutating func clause(_ condition: String, _ values: [any SQLiteBindable]) {
        sql += " AND (\(condition))"
        arguments += values
    }
}
