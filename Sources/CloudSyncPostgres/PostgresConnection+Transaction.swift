/// The isolation level of a transaction.
public enum PostgresIsolation: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
}

extension PostgresConnection {
    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT` when it returns, `ROLLBACK` when it
    /// throws (its error is rethrown). A serialization failure or deadlock (from `body` or from
    /// `COMMIT`) rolls back and runs `body` again while `retry(error, attempt)` says so (attempt
    /// counts from 1; by default up to 5 attempts), so `body` must be safe to repeat. Transactions
    /// do not nest: `.invalidArgument` inside another.
    @discardableResult
    public func transaction<T, E: Error>(_ isolation: PostgresIsolation = .readCommitted,
                                         retry: (PostgresError, Int) -> Bool = { _, attempt in attempt < 5 },
                                         _ body: (PostgresConnection) throws(E) -> T) throws -> T {
        guard !inTransaction else { throw PostgresError.invalidArgument("a transaction is already open on this connection") }
        var attempt = 1
        while true {
            try execute("BEGIN ISOLATION LEVEL \(isolation.rawValue)")
            inTransaction = true
            do {
                let value = try body(self)
                try execute("COMMIT")
                inTransaction = false
                return value
            } catch {
                inTransaction = false
                // A statement sent ahead is answered first (its failure, if any, is already the
                // transaction's), so that ROLLBACK can be sent.
                _ = try? awaitSent()
                // A COMMIT that failed has already ended the transaction; ROLLBACK is then a no-op
                // warning. One that cannot be sent (connection lost) reports the first error.
                _ = try? execute("ROLLBACK")
                guard let failure = error as? PostgresError, failure.isSerializationFailure,
                      retry(failure, attempt) else { throw error }
                attempt += 1
            }
        }
    }
}
