import CPostgres
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a PostgreSQL server through libpq (loaded on the first connection). Use it
/// from one thread at a time; it closes when released.
///
/// Statements: `execute` (one or more SQL commands, no parameters), `query` (one statement with
/// `$1…` parameters, `PQexecParams`) and `queryPrepared` (the same, prepared once per connection
/// and reused by name: `PQprepare` then `PQexecPrepared`), and `sendPrepared` (the same, its
/// answer read by the next statement). Transactions: `transaction { }`.
/// Notifications: `listen`, `notify`, `waitForNotification(timeout:)`.
public final class PostgresConnection {
    /// Where it is connected (the password stays out of `description`).
    public let url: PostgresURL
    let library: LibPQ
    let handle: OpaquePointer
    /// Prepared statements of this connection: SQL text → statement name.
    var preparedNames: [String: String] = [:]
    /// True inside `transaction { }`.
    var inTransaction = false
    /// Statements (SQL text, parameters written in) sent with the COMMIT of the open transaction,
    /// in the same round trip: writes whose answer nobody waits for (`sendWithCommit`).
    var commitPrelude: [String] = []
    /// Statements sent in pipeline mode and not answered yet (see `PostgresConnection+Pipeline`).
    var pending: [Pending] = []
    /// True while the connection is in libpq's pipeline mode.
    var inPipeline = false
    /// How many times `waitForNotification` woke from poll (for tests: it must not spin).
    var notificationWakeups = 0
    /// How many times this connection waited for the server's answers (a statement, a prepare,
    /// or the statements of a pipeline read together): what batching saves, for tests.
    public internal(set) var roundTrips = 0

    /// Parses `url` and connects; see `init(_:)`.
    public convenience init(url: String) throws(PostgresError) {
        try self.init(PostgresURL(url))
    }

    /// Connects. Errors: `.libraryUnavailable` (libpq missing), `.unreachable` (refused, timed
    /// out, unknown host), `.authenticationFailed`, `.databaseMissing`, `.connectionFailed`.
    public init(_ url: PostgresURL) throws(PostgresError) {
        let library: LibPQ
        do {
            library = try LibPQ.shared()
        } catch {
            throw .libraryUnavailable(error.description)
        }
        let parameters = url.connectionParameters
        let keywords = parameters.map { strdup($0.0) } + [nil]
        let values = parameters.map { strdup($0.1) } + [nil]
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let connection = keywords.map { UnsafePointer($0) }.withUnsafeBufferPointer { keys in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { vals in
                library.connectParams(keys.baseAddress, vals.baseAddress, 0)
            }
        }
        guard let connection else { throw .connectionFailed("libpq could not allocate a connection") }
        guard library.status(connection) == CONNECTION_OK else {
            let message = library.errorMessage(connection).map { String(cString: $0) } ?? ""
            library.finish(connection)
            throw PostgresError.connecting(message, url: url)
        }
        // Server notices (such as "relation already exists, skipping") would go to stderr.
        _ = library.setNoticeProcessor(connection, { _, _ in }, nil)
        self.url = url
        self.library = library
        self.handle = connection
    }

    deinit {
        library.finish(handle)
    }

    /// The server process serving this connection (`pg_backend_pid()`; a notification's sender).
    public var backendPID: Int32 { library.backendPID(handle) }

    /// The server's version as a number (150004 for 15.4).
    public var serverVersion: Int { Int(library.serverVersion(handle)) }

    /// Runs SQL without parameters (several commands separated by `;` are allowed); returns the
    /// rows of the last one.
    @discardableResult
    public func execute(_ sql: String) throws(PostgresError) -> PostgresRows {
        guard !sql.utf8.contains(0) else { throw .invalidArgument("the SQL contains a NUL byte") }
        try awaitSent()
        roundTrips += 1
        return try rows(of: library.exec(handle, sql))
    }

    /// Runs one statement with `$1…` parameters (`PQexecParams`), without preparing it.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        guard !sql.utf8.contains(0) else { throw .invalidArgument("the SQL contains a NUL byte") }
        try awaitSent()
        let types = parameters.map(PostgresType.of)
        roundTrips += 1
        let result = try withParameters(parameters) { values, lengths, formats in
            types.withUnsafeBufferPointer { types in
                library.execParams(handle, sql, Int32(parameters.count), types.baseAddress, values, lengths, formats, 0)
            }
        }
        return try rows(of: result)
    }

    /// Runs one statement with parameters as a prepared statement: prepared on its first use on
    /// this connection (parameter types from that call's values; NULL and text are inferred by
    /// the server), then executed by name, without parsing or planning again.
    @discardableResult
    public func queryPrepared(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        if inPipeline {
            // Goes with the statements sent before it: one round trip for all.
            try send(sql, parameters, prepared: true, expecting: .answer)
            guard let rows = try sync().last else { throw .unexpectedValue("a statement's answer is missing") }
            return rows
        }
        let name = try preparedName(sql, parameters)
        roundTrips += 1
        let result = try withParameters(parameters) { values, lengths, formats in
            library.execPrepared(handle, name, Int32(parameters.count), values, lengths, formats, 0)
        }
        return try rows(of: result)
    }

    /// How many statements this connection has prepared.
    public var preparedStatementCount: Int { preparedNames.count }

    /// Sets `statement_timeout` for the rest of the session: a statement running longer is
    /// cancelled (`PostgresError.isStatementTimeout`). 0 turns the limit off.
    public func setStatementTimeout(milliseconds: Int) throws(PostgresError) {
        guard milliseconds >= 0, milliseconds <= Int(Int32.max) else {
            throw .invalidArgument("statement_timeout must be 0...\(Int32.max) milliseconds")
        }
        try execute("SET statement_timeout = \(milliseconds)")
    }

    /// The statement name for `sql`, preparing it first if this connection has not.
    func preparedName(_ sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> String {
        if let name = preparedNames[sql] { return name }
        guard !sql.utf8.contains(0) else { throw .invalidArgument("the SQL contains a NUL byte") }
        let name = "cloudsync_\(preparedNames.count + 1)"
        let types = parameters.map(PostgresType.of)
        roundTrips += 1
        let result = types.withUnsafeBufferPointer { types in
            library.prepare(handle, name, sql, Int32(parameters.count), types.baseAddress)
        }
        _ = try rows(of: result)
        preparedNames[sql] = name
        return name
    }
}
