import CloudSyncService
import CloudSyncCore
import CloudSyncSQLite

/// The raw-SQLite baseline of the save benchmark: the same rows inserted by the `sqlite3` shell
/// in one transaction, into a table of comparable shape (name primary key, type, an integer
/// sequence with an index, the same field payload as JSON text), with the same pragmas the
/// cloud uses (WAL, synchronous=NORMAL). The script is written beforehand; the timed part is
/// the whole `sqlite3 FILE < script.sql` process.
struct SQLiteBaseline {
    let sqlite3: String
    let scriptPath: String
    let emptyScriptPath: String
    /// Rows the script inserts.
    let rows: Int

    /// The schema and pragmas, exactly as run (also reported in the JSON).
    static let preamble = """
        PRAGMA journal_mode=WAL;
        PRAGMA synchronous=NORMAL;
        CREATE TABLE records(name TEXT PRIMARY KEY, type TEXT NOT NULL, seq INTEGER NOT NULL, fields TEXT NOT NULL) WITHOUT ROWID;
        CREATE INDEX records_by_seq ON records(seq);
        """

    /// One INSERT per row, between BEGIN and COMMIT.
    static let statementShape = "BEGIN; INSERT INTO records(name, type, seq, fields) VALUES (?, ?, ?, ?) x rows; COMMIT;"

    /// Writes the insert script for `batches` and a script with only the preamble (to measure
    /// the fixed cost of a sqlite3 process creating the schema), as `name`.sql and
    /// `name`-empty.sql.
    static func prepare(sqlite3: String, batches: [[Record]], in work: WorkDirectory,
                        name: String = "baseline") throws -> SQLiteBaseline {
        var script = preamble + "\nBEGIN;\n"
        script.reserveCapacity(batches.count * CloudLimits.maxRecordsPerModify * 140)
        var seq = 0
        for batch in batches {
            for record in batch {
                seq += 1
                script += "INSERT INTO records(name, type, seq, fields) VALUES ("
                script += quoted(record.recordID.recordName) + ", " + quoted(record.recordType) + ", "
                script += String(seq) + ", " + quoted(RecordJSON.encode(fields: record.fields).serialized()) + ");\n"
            }
        }
        script += "COMMIT;\n"
        let baseline = SQLiteBaseline(sqlite3: sqlite3, scriptPath: work.file(name + ".sql"),
                                      emptyScriptPath: work.file(name + "-empty.sql"), rows: seq)
        try FileIO.write(script, to: baseline.scriptPath)
        try FileIO.write(preamble + "\n", to: baseline.emptyScriptPath)
        return baseline
    }

    /// An SQL string literal.
    static func quoted(_ text: String) -> String {
        var out = "'"
        for character in text {
            out.append(character)
            if character == "'" { out.append("'") }
        }
        return out + "'"
    }

    /// Runs the insert script (or the preamble only) into a fresh `database`; returns the
    /// process outcome. stdout (the `wal` the pragma prints) goes to /dev/null.
    func run(into database: String, emptyOnly: Bool = false) throws -> Spawn.Outcome {
        let outcome = try Spawn.run(sqlite3, [database], stdinPath: emptyOnly ? emptyScriptPath : scriptPath,
                                    stdoutPath: "/dev/null")
        guard outcome.status == 0 else { throw BenchError("\(sqlite3) exited with status \(outcome.status)") }
        return outcome
    }

    /// One timed run of the insert script into a fresh database `name` of `work`, checked to
    /// hold every row, then removed. Returns the process outcome (wall and CPU time).
    func timedRun(_ name: String, in work: WorkDirectory) throws -> Spawn.Outcome {
        work.removeDatabase(name)
        defer { work.removeDatabase(name) }
        let outcome = try run(into: work.file(name))
        let inserted = try SQLiteBaseline.rowCount(work.file(name))
        guard inserted == rows else { throw BenchError("sqlite3 inserted \(inserted) rows, expected \(rows)") }
        return outcome
    }

    /// What `sqlite3 --version` prints (first line).
    func shellVersion(in work: WorkDirectory) -> String {
        let out = work.file("sqlite3-version.txt")
        defer { FileIO.remove(out) }
        guard let outcome = try? Spawn.run(sqlite3, ["--version"], stdoutPath: out), outcome.status == 0,
              let bytes = try? FileIO.read(out) else { return "" }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// Rows in the baseline table, to check the run did insert them all.
    static func rowCount(_ database: String) throws -> Int {
        let connection = try Connection(path: database)
        return Int(try connection.scalarInt("SELECT count(*) FROM records") ?? 0)
    }
}
