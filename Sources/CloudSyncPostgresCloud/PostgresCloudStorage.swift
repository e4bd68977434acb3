import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres
import Synchronization

/// A PostgreSQL cloud's storage: the tables of `PostgresCloudSchema` in one database (or one
/// schema of it, `?schema=`), with no rules of the service (those are `StorageBackedCloud`'s).
///
/// `shared(_:)` keeps one storage per URL for the process (every `PostgresCloud` opened on that
/// URL, such as each line of a script, shares it). Its connections are a `PostgresConnectionPool`
/// of `StoreConnections.limit` (1 for a command, `serve --db-connections` for a server), each
/// used by one transaction at a time, with `statement_timeout`; every statement with parameters
/// is prepared once per connection. A lost connection is dropped and made again on demand.
///
/// Sequencing. A read transaction is `REPEATABLE READ`: one snapshot. A write transaction is
/// `READ COMMITTED` and takes the write lock of the database it writes, the `databases` row,
/// with its first look at it (`SELECT … FOR UPDATE` in `findDatabase`, which every
/// database-scoped write does before anything else): writers of one database serialize across
/// processes and machines, as `BEGIN IMMEDIATE` does for the SQLite file, while writers of other
/// databases run in parallel. Under that lock the zone row is read `FOR UPDATE` and the
/// counters are taken with `UPDATE … RETURNING`, so writers commit in counter order and no reader
/// sees N+1 before N. Account-level writes (accounts, schema fields, key-value stores, devices,
/// notifications) use `ON CONFLICT` and the key-value store's row lock instead.
final class PostgresCloudStorage: CloudStorage, WriteGrouping, @unchecked Sendable {
    let url: PostgresURL
    let epoch: UInt64
    /// The connections transactions run on.
    let pool: PostgresConnectionPool
    /// The database writers queued in the process and carried in groups.
    let groupCommit: PostgresGroupCommit
    /// Guards the statistics counters below.
    let statisticsLock = Mutex(())
    /// Guards `imageConnection`: one image read at a time.
    let imageLock = Mutex(())
    /// A connection apart reading the last committed state (record images for query
    /// subscriptions), opened on first need.
    var imageConnection: PostgresConnection?
    /// Record rows this process wrote in batches since it last analysed the table (the
    /// server's own counter lags: a backend publishes it at most once a second).
    var rowsSinceAnalyze = 0
    /// Record rows this process wrote in batches since it last read the table's statistics.
    var rowsSinceStatisticsCheck = 0
    /// The server's `n_mod_since_analyze` when this process last analysed: an analysis of some
    /// columns leaves that counter running, so modifications since are counted from here.
    var serverModifiedAtAnalyze: Int64 = 0

    /// The storages of this process, by URL.
    private static let storages = Mutex<[PostgresURL: PostgresCloudStorage]>([:])

    /// The process's storage for `url`, connected on first use.
    static func shared(_ url: PostgresURL) throws(CloudError) -> PostgresCloudStorage {
        if let existing = storages.withLock({ $0[url] }) { return existing }
        let storage = try PostgresCloudStorage(url: url, connections: StoreConnections.limit, maxWait: StoreConnections.maxWait)
        return storages.withLock { storages in
            if let existing = storages[url] { return existing }
            storages[url] = storage
            return storage
        }
    }

    /// How long one statement may run before the server cancels it.
    static let statementTimeoutMilliseconds = 30_000

    /// Connects, creates or upgrades the tables, and reads the store epoch.
    init(url: PostgresURL, connections: Int = 1, maxWait: Double = StoreConnections.maxWait) throws(CloudError) {
        self.url = url
        do {
            let connection = try PostgresCloudStorage.connect(url)
            epoch = try PostgresCloudMigrator.prepare(connection, displayName: url.description)
            pool = PostgresConnectionPool(url: url, capacity: connections, maxWait: maxWait, first: connection)
            groupCommit = PostgresGroupCommit(lanes: pool.capacity)
        } catch {
            throw PostgresCloudStorage.cloudError(error, url: url)
        }
    }

    /// A configured connection: timeout set, in the cloud's schema (created on first use).
    static func connect(_ url: PostgresURL) throws -> PostgresConnection {
        let connection = try PostgresConnection(url)
        try connection.setStatementTimeout(milliseconds: statementTimeoutMilliseconds)
        if let schema = url.schema {
            let created: Result<PostgresRows, PostgresError> = Result { () throws(PostgresError) in
                try connection.execute("CREATE SCHEMA IF NOT EXISTS \"\(schema)\"")
            }
            // A concurrent creator may win the race: that is fine. A read-only server (a streaming
            // replica, `serve --read-replica`) refuses any CREATE: the schema is the primary's.
            if case .failure(let error) = created, !["23505", "42P06", "25006"].contains(error.sqlState) { throw error }
            try connection.execute("SET search_path TO \"\(schema)\"")
        }
        return connection
    }

    func read<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try guarded { connection in
            try connection.transaction(.repeatableRead, readOnly: true) { connection in
                try body(PostgresCloudTransaction(storage: self, connection: connection, writing: false))
            }
        }
    }

    /// One statement in autocommit: no BEGIN and COMMIT around it (a single statement sees one
    /// snapshot on its own).
    func readOne<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try guarded { connection in
            try body(PostgresCloudTransaction(storage: self, connection: connection, writing: false,
                                              single: PostgresCloudTransaction.SingleStatement()))
        }
    }

    /// Queues the database writers of the process (`PostgresGroupCommit`) before they lease a
    /// connection: the writes queued together, of one database or of several, share one
    /// transaction, each in a savepoint of its own with its own result.
    func write<T>(database key: DatabaseWriteKey, _ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        var value: T?
        let failure: CloudError? = withoutActuallyEscaping(body) { body in
            let job = PostgresGroupCommit.Job(key: key) { transaction in value = try body(transaction) }
            groupCommit.submit(job) { group in writeGroup(group) }
            job.drop()
            return job.failure
        }
        if let failure { throw failure }
        guard let value else { throw CloudError(.internalError, "a grouped write returned no value") }
        return value
    }

    var writeGroupFigures: WriteGroupFigures { groupCommit.figures }

    /// Runs a group of writes (of one database or of several) in one transaction, each with a
    /// fresh transaction object and its own result. First without savepoints (one round trip
    /// less per write). Statements are pipelined, so a write's failure may come with the next
    /// write's first statement (a quota refusal checked by its statement, a row that did not
    /// land): when a group of several fails on its own (a refusal, a `CloudError` such as an
    /// atomic zone's, or a failed statement), the transaction is rolled back and every write
    /// runs again, each in a savepoint of its own and answered before the next one starts, so
    /// that each refusal undoes only its own write and is its result; a group runs at most
    /// twice. A lone write's failure is its own. A lost connection, a deadlock or serialization
    /// failure (the transaction is retried whole) and a failed COMMIT are every write's.
    func writeGroup(_ group: [PostgresGroupCommit.Job]) {
        var savepoints = false
        while true {
            do {
                let failed: Bool = try guarded { connection in
                    var written = 0
                    do {
                        try connection.transaction(.readCommitted) { connection in
                            written = 0
                            for (index, job) in group.enumerated() {
                                if savepoints {
                                    written += try runInSavepoint(job, index: index, connection)
                                    continue
                                }
                                let transaction = PostgresCloudTransaction(storage: self, connection: connection, writing: true)
                                job.failure = nil
                                do {
                                    try job.run(transaction)
                                    try transaction.flush()
                                    // The last one's answers before COMMIT: a refusal is then a write's, not the commit's.
                                    if group.count > 1 && index == group.count - 1 { try connection.awaitSent() }
                                } catch {
                                    if let failure = error as? PostgresError, !Self.isOwnFailure(failure) { throw failure }
                                    guard group.count == 1 else { throw GroupMemberFailed() }
                                    job.failure = PostgresCloudStorage.cloudError(error, url: url)
                                    throw GroupMemberFailed()
                                }
                                written += transaction.batch.writtenRows
                            }
                        }
                    } catch is GroupMemberFailed {
                        return true
                    }
                    afterWrite(connection, written: written)
                    return false
                }
                guard failed, group.count > 1, !savepoints else { return }
                savepoints = true
            } catch {
                for job in group { job.failure = error }
                return
            }
        }
    }

    /// A write of a group failed on its own: the transaction is rolled back (and a group of
    /// several runs again with savepoints).
    private struct GroupMemberFailed: Error {}

    /// Runs one write of a group in a savepoint of its own; a failure of its own rolls back to
    /// it and is its result. Returns the record rows it wrote.
    private func runInSavepoint(_ job: PostgresGroupCommit.Job, index: Int, _ connection: PostgresConnection) throws -> Int {
        let transaction = PostgresCloudTransaction(storage: self, connection: connection, writing: true)
        job.failure = nil
        try connection.sendCommand("SAVEPOINT cloudsync_group\(index)")
        let mark = connection.commitPreludeMark
        do {
            try job.run(transaction)
            try transaction.flush()
            // Its statements answered before the next write's start: a failure is its own.
            try connection.awaitSent()
            return transaction.batch.writtenRows
        } catch {
            if let failure = error as? PostgresError, !Self.isOwnFailure(failure) { throw failure }
            transaction.batch.discard()
            try? connection.awaitSent()
            try connection.execute("ROLLBACK TO SAVEPOINT cloudsync_group\(index)")
            // Its statements queued for the COMMIT (the usage ledger's) go with it.
            connection.dropCommitPrelude(after: mark)
            job.failure = PostgresCloudStorage.cloudError(error, url: url)
            return 0
        }
    }

    /// A failed statement that concerns only the write that ran it (a constraint, a timeout of
    /// its own statement), not the transaction: not a lost connection, a deadlock or a
    /// serialization failure.
    static func isOwnFailure(_ error: PostgresError) -> Bool {
        guard case .server = error else { return false }
        return !error.isSerializationFailure
    }

    func write<T>(_ body: (any CloudStorageTransaction) throws -> T) throws(CloudError) -> T {
        try guarded { connection in
            var written = 0
            let value = try connection.transaction(.readCommitted) { connection in
                let transaction = PostgresCloudTransaction(storage: self, connection: connection, writing: true)
                let value = try body(transaction)
                try transaction.flush()
                written = transaction.batch.writtenRows
                return value
            }
            afterWrite(connection, written: written)
            return value
        }
    }

    /// Counts the record rows a committed write wrote and refreshes the table's statistics
    /// when due.
    func afterWrite(_ connection: PostgresConnection, written: Int) {
        let due = statisticsLock.withLock { _ in
            rowsSinceAnalyze += written
            rowsSinceStatisticsCheck += written
            guard rowsSinceStatisticsCheck >= PostgresCloudStorage.statisticsCheckRows else { return false }
            rowsSinceStatisticsCheck = 0
            return true
        }
        if due { refreshStatisticsIfStale(connection) }
    }

    /// The committed write that brings the record rows written since the last check to this many
    /// checks the table's statistics (one statement per 1,000 rows, whether they came in bulk
    /// calls or one-record saves: 32 clients saving one record at a time into tables that were
    /// never analysed had every look-up by name read its whole zone, 250 µs of the server's CPU
    /// per save in a zone of 3,000 records, most of what a save cost it).
    static let statisticsCheckRows = 1_000
    /// The columns of `records` the planner's choices for cloudsync's statements depend on.
    static let analysedColumns = "db_id, zone_id, name, seq, deleted, type"

    /// Runs `ANALYZE records` when the rows modified since the last analysis (the server's count,
    /// or this process's own batched rows if larger) reach three times the table's size then (at
    /// least 1,000, at most 50,000): without statistics, or with statistics that predate most of a
    /// zone, PostgreSQL's planner takes `db_id, zone_id` as selective and looks records up by
    /// name through the `(db_id, zone_id, seq)` index with a filter, which reads the whole zone
    /// for each look-up; autovacuum refreshes them only after its next round (a minute) and 10 %
    /// of the table. Statistics of a quarter of the rows are enough (the planner scales the row
    /// count by the table's current pages; what matters is that names are known unique), so a
    /// bulk fill (100k records in calls of 400) is analysed at about 1k, 4k, 16k and 64k rows and
    /// then every 50k. Only the columns the planner needs for the records' look-ups and scans
    /// are analysed (`analysedColumns`): sorting a sample of the `fields` text was most of the
    /// cost (about 190 ms for 64k rows, against 50 ms without it); autovacuum still analyses
    /// every column on its own schedule. `SKIP_LOCKED`: while another analysis holds the table
    /// (autovacuum's, or another node's), this one is skipped rather than waited for with the
    /// writer's connection. Best effort: a failure (a role that does not own the table)
    /// changes nothing.
    func refreshStatisticsIfStale(_ connection: PostgresConnection) {
        do {
            guard let row = try connection.queryPrepared("""
                SELECT s.n_mod_since_analyze, c.reltuples FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
                WHERE s.relid = 'records'::regclass
                """).first else { return }
            let serverModified = row[0].int64 ?? 0
            let (mark, ours) = statisticsLock.withLock { _ in (serverModifiedAtAnalyze, rowsSinceAnalyze) }
            // Below the mark: a full analysis (autovacuum's) reset the counter since.
            let sinceOurs = serverModified >= mark ? serverModified - mark : serverModified
            let modified = max(sinceOurs, Int64(ours))
            let tuples = max(row[1].double ?? 0, 0)
            guard Double(modified) >= max(1_000, min(3 * tuples, 50_000)) else { return }
            try connection.execute("ANALYZE (SKIP_LOCKED) records(\(PostgresCloudStorage.analysedColumns))")
            statisticsLock.withLock { _ in
                rowsSinceAnalyze = 0
                serverModifiedAtAnalyze = serverModified
            }
        } catch {
            return
        }
    }

    func makeNotificationWaiter(for device: DeviceAddress) throws(CloudError) -> any NotificationWaiter {
        do {
            return try PostgresNotificationWaiter(url: url, channel: PostgresNotificationChannel.name(for: device, schema: url.schema))
        } catch {
            throw PostgresCloudStorage.cloudError(error, url: url)
        }
    }

    /// Runs `body` on a connection of the pool (made again if one was lost), mapping every
    /// failure to a `CloudError`; all connections busy past the pool's wait is
    /// `serviceUnavailable` with `retryAfter`.
    func guarded<T>(_ body: (PostgresConnection) throws -> T) throws(CloudError) -> T {
        do {
            return try pool.withConnection(body)
        } catch {
            throw PostgresCloudStorage.cloudError(error, url: url)
        }
    }

    /// A failure as a `CloudError`: unreachable or lost → `serviceUnavailable` (69, retried);
    /// refused credentials → `notAuthenticated` (77); a cancelled statement → `serviceUnavailable`
    /// with a retry hint; anything else → `internalError`.
    static func cloudError(_ error: any Error, url: PostgresURL) -> CloudError {
        if let error = error as? CloudError { return error }
        guard let error = error as? PostgresError else { return CloudError(.internalError, "cloud failed: \(error)") }
        switch error {
        case .authenticationFailed:
            return CloudError(.notAuthenticated, error.description)
        case .unreachable, .connectionFailed, .libraryUnavailable, .databaseMissing:
            return CloudError(.serviceUnavailable, error.description)
        case .connectionLost:
            return CloudError(.serviceUnavailable, error.description, retryAfter: 1)
        case .invalidURL:
            return CloudError(.invalidArguments, error.description)
        case .server(let state, _):
            if let refusal = PostgresCloudTransaction.quotaRefusal(error) { return refusal }
            if error.isStatementTimeout || error.isSerializationFailure || state == "55P03" {
                return CloudError(.serviceUnavailable, "the PostgreSQL cloud is busy: \(error.description)", retryAfter: 1)
            }
            if state == "53100" { return CloudError(.quotaExceeded, "the PostgreSQL server's disk is full") }
            if state == "42501" { return CloudError(.permissionFailure, error.description) }
            return CloudError(.internalError, "cloud storage failed: \(error.description)")
        case .invalidArgument, .unexpectedValue:
            return CloudError(.internalError, "cloud storage failed: \(error.description)")
        }
    }
}
