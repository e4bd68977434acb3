import CloudSyncService
import CloudSyncCore
import CloudSyncSQLite

/// (a) Saving `rows` small records in 400-record modify calls into a fresh embedded cloud,
/// against the sqlite3 shell inserting the same rows in one transaction. Runs alternate
/// (ours, raw, ours, raw, ...) so that noise from other work on the machine hits both alike.
struct SaveBenchmark {
    static let target = 0.5

    let options: BenchOptions
    let work: WorkDirectory

    /// The measurements.
    struct Result {
        var rows: Int
        /// Ours: open the fresh cloud file (schema creation), create the zone, every modify call.
        var ours = Samples()
        /// Ours: the open and zone creation part alone.
        var oursOpen = Samples()
        /// The sqlite3 process inserting every row.
        var raw = Samples()
        /// A sqlite3 process that only creates the schema: its fixed cost.
        var rawFixed = Samples()
        /// The SQLite library this process (the cloud) links.
        var libraryVersion = ""
        /// What the sqlite3 shell reports.
        var shellVersion = ""
        var scriptBytes: Int64 = 0
        /// The cloud of the last run, kept for the fetch benchmark.
        var cloudPath = ""
        /// The prepared sqlite3 script, kept for the store benchmark's baseline.
        var baseline: SQLiteBaseline?

        var oursRate: Double { Double(rows) / ours.median }
        var rawRate: Double { Double(rows) / raw.median }
        var ratio: Double { oursRate / rawRate }
        var oursSavesOnlyRate: Double { Double(rows) / (ours.median - oursOpen.median) }

        func json(sqlite3: String) -> JSONValue {
            .object([
                ("rows", JSONFigures.int(rows)),
                ("batch_size", JSONFigures.int(CloudLimits.maxRecordsPerModify)),
                ("runs", JSONFigures.int(ours.count)),
                ("ours_rows_per_s", JSONFigures.rate(oursRate)),
                ("sqlite3_rows_per_s", JSONFigures.rate(rawRate)),
                ("ratio", JSONFigures.number(ratio)),
                ("target", .double(SaveBenchmark.target)),
                ("met", .bool(ratio >= SaveBenchmark.target)),
                ("ours_seconds", JSONFigures.seconds(ours)),
                ("ours_open_ms", JSONFigures.number(oursOpen.median * 1000)),
                ("ours_saves_only_rows_per_s", JSONFigures.rate(oursSavesOnlyRate)),
                ("sqlite3_seconds", JSONFigures.seconds(raw)),
                ("sqlite3_process_fixed_ms", JSONFigures.number(rawFixed.median * 1000)),
                ("noise_relative_spread", .object([("ours", JSONFigures.number(ours.relativeSpread)),
                                                   ("sqlite3", JSONFigures.number(raw.relativeSpread))])),
                ("ours_timed", .string("open fresh cloud file + create zone + \(rows / CloudLimits.maxRecordsPerModify) modifyRecords calls of 400 new records (records built beforehand)")),
                ("baseline", .object([
                    ("tool", .string(sqlite3)),
                    ("shell_version", .string(shellVersion)),
                    ("cloud_library_version", .string(libraryVersion)),
                    ("timed", .string("wall time of the whole `sqlite3 FILE < script.sql` process on a fresh file; script generated beforehand")),
                    ("schema", .string(SQLiteBaseline.preamble)),
                    ("statements", .string(SQLiteBaseline.statementShape)),
                    ("payload", .string("fields column = the same JSON text the cloud stores (RecordJSON.encode(fields:))")),
                    ("script_bytes", .int(scriptBytes)),
                ])),
            ])
        }
    }

    func run() throws -> Result {
        var result = Result(rows: options.saveRows)
        Log.line("(a) save \(result.rows) records: preparing records and the sqlite3 script (not timed)")
        let zoneID = ZoneID(zoneName: BenchSetup.zoneName, ownerRecordName: "placeholder")
        let batches = SampleRecords.batches(0..<result.rows, zone: zoneID)
        let baseline = try SQLiteBaseline.prepare(sqlite3: options.sqlite3, batches: batches, in: work)
        result.scriptBytes = FileIO.size(baseline.scriptPath)
        result.shellVersion = baseline.shellVersion(in: work)
        result.libraryVersion = try Self.version(":memory:")
        result.baseline = baseline

        for run in 1...options.runs {
            let name = "save-\(run).sqlite"
            work.removeDatabase(name)
            let cloudPath = work.file(name)
            let start = MonotonicClock.now()
            let handle = try CloudFiller.open(cloudPath)
            let opened = MonotonicClock.now()
            for batch in batches {
                // The zone ID's owner is filled in by the cloud from the request.
                try CloudFiller.save(batch, handle)
            }
            let end = MonotonicClock.now()
            result.ours.append(end - start)
            result.oursOpen.append(opened - start)
            let stored = try CloudFiller.recordCount(handle)
            guard stored == result.rows else { throw BenchError("the cloud holds \(stored) records, expected \(result.rows)") }
            Log.line("  run \(run) ours:    \(Log.fixed(end - start, 3)) s  \(Int(Double(result.rows) / (end - start))) rows/s")
            if run < options.runs { work.removeDatabase(name) } else { result.cloudPath = cloudPath }

            let raw = try baseline.timedRun("raw-\(run).sqlite", in: work).seconds
            result.raw.append(raw)
            Log.line("  run \(run) sqlite3: \(Log.fixed(raw, 3)) s  \(Int(Double(result.rows) / raw)) rows/s")

            let fixedName = "raw-fixed-\(run).sqlite"
            work.removeDatabase(fixedName)
            result.rawFixed.append(try baseline.run(into: work.file(fixedName), emptyOnly: true).seconds)
            work.removeDatabase(fixedName)
        }
        Log.line("  median: ours \(Int(result.oursRate)) rows/s, sqlite3 \(Int(result.rawRate)) rows/s, ratio \(Log.fixed(result.ratio, 3)) (target >= \(SaveBenchmark.target))")
        return result
    }

    /// The SQLite library version, read through a connection to `database` (":memory:" will do).
    static func version(_ database: String) throws -> String {
        let connection = try Connection(path: database)
        return try connection.queryOne("SELECT sqlite_version()") { $0.string(0) } ?? ""
    }
}
