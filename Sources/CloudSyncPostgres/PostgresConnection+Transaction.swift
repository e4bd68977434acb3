/// The isolation level of a transaction.
public enum PostgresIsolation: String, Sendable {
    case readCommitted = "READ COMMITTED"
    case repeatableRead = "REPEATABLE READ"
    case serializable = "SERIALIZABLE"
}

extension PostgresConnection {
    /// Queues `sql` (one statement without parameters: values written in as literals) to run
    /// just before the open transaction's COMMIT, in the same round trip; its failure fails the
    /// commit. Outside a transaction it runs at once.
    public func sendWithCommit(_ sql: String) throws(PostgresError) {
        guard inTransaction else {
            _ = try execute(sql)
            return
        }
        commitPrelude.append(sql)
    }

    /// How many statements `sendWithCommit` has queued in the open transaction: a mark to undo
    /// them to (`dropCommitPrelude(after:)`) when the savepoint they were queued in is rolled back.
    public var commitPreludeMark: Int { commitPrelude.count }

    /// Forgets the statements queued with `sendWithCommit` since `mark`, as a rollback to a
    /// savepoint taken at that mark undoes what ran since.
    public func dropCommitPrelude(after mark: Int) {
        if commitPrelude.count > mark { commitPrelude.removeLast(commitPrelude.count - max(mark, 0)) }
    }

    /// A text as an SQL string literal (quotes doubled; the server's standard_conforming_strings,
    /// on since PostgreSQL 9.1, keeps backslashes literal).
    public static func literal(_ text: String) -> String {
        "'" + text.replacingQuotes() + "'"
    }

    /// Runs `body` in a transaction: `BEGIN`, then `COMMIT` when it returns, `ROLLBACK` when it
    /// throws (its error is rethrown). A serialization failure or deadlock (from `body` or from
    /// `COMMIT`) rolls back and runs `body` again while `retry(error, attempt)` says so (attempt
    /// counts from 1; by default up to 5 attempts), so `body` must be safe to repeat. Transactions
    /// do not nest: `.invalidArgument` inside another.
    ///
    /// BEGIN is sent with the body's first statement, and COMMIT with the writes sent ahead and
    /// the statements queued for it: one round trip each. `readOnly`: the body only reads, so
    /// its COMMIT cannot fail on its own: it is sent without waiting (the server commits as it
    /// receives it), and its answer is read with the connection's next statement.
    @discardableResult
    public func transaction<T, E: Error>(_ isolation: PostgresIsolation = .readCommitted, readOnly: Bool = false,
                                         retry: (PostgresError, Int) -> Bool = { _, attempt in attempt < 5 },
                                         _ body: (PostgresConnection) throws(E) -> T) throws -> T {
        guard !inTransaction else { throw PostgresError.invalidArgument("a transaction is already open on this connection") }
        var attempt = 1
        while true {
            try send("BEGIN ISOLATION LEVEL \(isolation.rawValue)", prepared: false, expecting: .command)
            inTransaction = true
            commitPrelude = []
            do {
                let value = try body(self)
                for statement in commitPrelude { try send(statement, prepared: false, expecting: .command) }
                try send("COMMIT", prepared: false, expecting: .command)
                if readOnly && commitPrelude.isEmpty {
                    try flushPipeline()
                } else {
                    try awaitSent()
                }
                commitPrelude = []
                inTransaction = false
                return value
            } catch {
                inTransaction = false
                commitPrelude = []
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

extension String {
    /// The text with each `'` doubled, for an SQL string literal.
    fileprivate func replacingQuotes() -> String {
        var out = ""
        out.reserveCapacity(utf8.count + 2)
        for character in self {
            out.append(character)
            if character == "'" { out.append("'") }
        }
        return out
    }
}
