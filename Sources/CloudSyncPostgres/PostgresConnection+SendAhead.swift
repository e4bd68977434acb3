/// Statements sent ahead: the caller goes on with its own work while the server runs one.
extension PostgresConnection {
    /// Sends one prepared statement (see `queryPrepared`) without waiting for its answer, so that
    /// the server runs it while the caller prepares what comes next. The answer is read before the
    /// connection's next statement, by any call (or by `awaitSent()`), and its failure is thrown
    /// there; so is a count of changed rows other than `expectedRows`. At most one statement is
    /// ahead: a second `sendPrepared` reads the first one's answer before it sends.
    public func sendPrepared(_ sql: String, _ parameters: [PostgresValue], expectingRows expectedRows: Int) throws(PostgresError) {
        try awaitSent()
        let name = try preparedName(sql, parameters)
        roundTrips += 1
        let sent = try withParameters(parameters) { values, lengths, formats in
            library.sendPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        guard sent == 1 else { throw lostOrFailed(nil) }
        sentAheadRows = expectedRows
    }

    /// Reads the answer of the statement sent ahead, if any: its failure (the server's error, or
    /// `.unexpectedValue` when it changed another number of rows than expected) is thrown. The
    /// connection is then free for the next statement, whether this throws or not.
    public func awaitSent() throws(PostgresError) {
        guard let expected = sentAheadRows else { return }
        sentAheadRows = nil
        var outcome: Result<Int, PostgresError>?
        // Every result up to libpq's nil must be read before the connection takes a new statement.
        while let result = library.getResult(handle) {
            guard outcome == nil else {
                library.clear(result)
                continue
            }
            outcome = Result { () throws(PostgresError) in try rows(of: result).affectedRows }
        }
        guard let outcome else { throw lostOrFailed(nil) }
        let changed = try outcome.get()
        guard changed == expected else {
            throw .unexpectedValue("a statement sent ahead changed \(changed) rows instead of \(expected)")
        }
    }
}
