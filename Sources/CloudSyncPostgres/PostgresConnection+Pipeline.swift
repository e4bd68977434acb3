import CPostgres

/// Statements sent without waiting (libpq's pipeline mode, libpq 14 and later): the server runs
/// each as it arrives, and their answers are read together by the next statement that needs
/// one, in the same round trip. A transaction's BEGIN goes with its first statement, writes sent
/// ahead (`sendPrepared`) and the statements queued for the COMMIT (`sendWithCommit`) go with
/// the COMMIT, and a read-only transaction's COMMIT goes with the connection's next statement.
extension PostgresConnection {
    /// A statement sent and not answered yet: what its answer must be.
    enum Pending {
        /// BEGIN, COMMIT, a statement queued for the COMMIT: it must succeed.
        case command
        /// A statement prepared in the pipeline (its SQL): forgotten when it did not succeed.
        case prepare(String)
        /// A write sent ahead: it must change exactly this many rows.
        case rows(Int)
        /// A statement whose rows the caller waits for.
        case answer
    }

    /// The most statements left unanswered: the server's answers wait in its output buffer
    /// until they are read, and a client that only writes while the server only writes would
    /// wait forever, so a long queue is read first.
    static let maxPending = 32

    /// Sends one statement without waiting for its answer. `prepared`: prepared once per
    /// connection (in the pipeline when it is new) and run by name, with `parameters`; otherwise
    /// sent as it is, without parameters (one command).
    func send(_ sql: String, _ parameters: [PostgresValue] = [], prepared: Bool, expecting: Pending) throws(PostgresError) {
        guard !sql.utf8.contains(0) else { throw .invalidArgument("the SQL contains a NUL byte") }
        if pending.count >= Self.maxPending { try sync() }
        if !inPipeline {
            guard library.enterPipelineMode(handle) == 1 else { throw lostOrFailed(nil) }
            inPipeline = true
        }
        let sent: Int32
        if prepared {
            let name: String
            if let known = preparedNames[sql] {
                name = known
            } else {
                name = "cloudsync_\(preparedNames.count + 1)"
                let types = parameters.map(PostgresType.of)
                let queued = types.withUnsafeBufferPointer { types in
                    library.sendPrepare(handle, name, sql, Int32(parameters.count), types.baseAddress)
                }
                guard queued == 1 else { throw lostOrFailed(nil) }
                preparedNames[sql] = name
                pending.append(.prepare(sql))
            }
            sent = try withParameters(parameters) { values, lengths, formats in
                library.sendPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
            }
        } else {
            sent = library.sendQueryParams(handle, sql, 0, nil, nil, nil, nil, 0)
        }
        guard sent == 1 else { throw lostOrFailed(nil) }
        pending.append(expecting)
    }

    /// Sends what was queued to the server, without reading anything: the server starts on it.
    func flushPipeline() throws(PostgresError) {
        guard inPipeline else { return }
        guard library.flush(handle) == 0 else { throw lostOrFailed(nil) }
    }

    /// Ends the pipeline: one round trip reads every answer in order and checks each against
    /// what it must be. Returns the rows of the statements sent as `.answer`, in order; throws
    /// the first failure, after reading everything (the statements after a failed one were
    /// skipped by the server; the connection is then free for the next statement, ROLLBACK
    /// included).
    @discardableResult
    func sync() throws(PostgresError) -> [PostgresRows] {
        guard inPipeline else { return [] }
        let items = pending
        pending = []
        defer { leavePipeline() }
        guard library.pipelineSync(handle) == 1 else { throw lostOrFailed(nil) }
        roundTrips += 1
        var failure: PostgresError?
        var answers: [PostgresRows] = []
        for item in items {
            guard let result = library.getResult(handle) else {
                throw failure ?? lostOrFailed(nil)
            }
            let status = library.resultStatus(result)
            if status == PGRES_PIPELINE_ABORTED {
                library.clear(result)
                if case .prepare(let sql) = item { preparedNames[sql] = nil }
            } else {
                do throws(PostgresError) {
                    let rows = try self.rows(of: result)
                    switch item {
                    case .answer:
                        answers.append(rows)
                    case .rows(let expected) where rows.affectedRows != expected:
                        throw PostgresError.unexpectedValue(
                            "a statement sent ahead changed \(rows.affectedRows) rows instead of \(expected)")
                    case .command, .prepare, .rows:
                        break
                    }
                } catch {
                    if case .prepare(let sql) = item { preparedNames[sql] = nil }
                    failure = failure ?? error
                }
            }
            // Each statement's answer ends with a null result.
            while let extra = library.getResult(handle) { library.clear(extra) }
        }
        if let failure { throw failure }
        return answers
    }

    /// Reads the pipeline's sync point and leaves pipeline mode (whatever was left unread is
    /// read and dropped), so that the connection takes ordinary statements again.
    private func leavePipeline() {
        var tries = 0
        while library.exitPipelineMode(handle) != 1 {
            tries += 1
            guard tries < 64, library.status(handle) != CONNECTION_BAD else { break }
            guard let result = library.getResult(handle) else { continue }
            library.clear(result)
        }
        inPipeline = false
    }

    /// Sends one prepared statement (see `queryPrepared`) without waiting for its answer, so that
    /// the server runs it while the caller prepares what comes next. Its answer is read with the
    /// connection's next statement that needs one (or by `awaitSent()`), and its failure is
    /// thrown there; so is a count of changed rows other than `expectedRows`.
    public func sendPrepared(_ sql: String, _ parameters: [PostgresValue], expectingRows expectedRows: Int) throws(PostgresError) {
        try send(sql, parameters, prepared: true, expecting: .rows(expectedRows))
        try flushPipeline()
    }

    /// Sends one command without parameters (a SAVEPOINT) without waiting: it goes with the
    /// connection's next statement, and its failure is thrown there.
    public func sendCommand(_ sql: String) throws(PostgresError) {
        try send(sql, prepared: false, expecting: .command)
    }

    /// Reads the answers of every statement sent and not answered yet, throwing the first
    /// failure (the server's error, or `.unexpectedValue` when a write sent ahead changed another
    /// number of rows than expected). The connection is then free for the next statement,
    /// whether this throws or not.
    public func awaitSent() throws(PostgresError) {
        try sync()
    }

    /// Runs several prepared statements in one round trip (with whatever was sent before them)
    /// and returns their rows in order. Each runs after the one before it, as if sent one by one.
    public func queryPreparedTogether(_ statements: [(sql: String, parameters: [PostgresValue])]) throws(PostgresError) -> [PostgresRows] {
        for statement in statements { try send(statement.sql, statement.parameters, prepared: true, expecting: .answer) }
        let answers = try sync()
        guard answers.count == statements.count else { throw .unexpectedValue("a statement's answer is missing") }
        return answers
    }

    /// True while statements are sent and not answered (for tests).
    public var hasUnansweredStatements: Bool { !pending.isEmpty }
}
