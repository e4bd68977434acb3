import CloudSyncSQLite
import Glibc
import TestSupport
import Testing

@Suite("Connection: persistent WAL and exclusive-when-alone locking")
struct ConnectionLockingTests {
    let dir = TemporaryDirectory("sqlite-locking")

    func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    func count(_ connection: Connection) throws -> Int64? {
        try connection.scalarInt("SELECT count(*) FROM t")
    }

    @Test func theWALStaysEmptyAndCheckpointedAfterTheLastClose() throws {
        let path = dir.file("persist.sqlite")
        do {
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3)")
            #expect((size(path + "-wal") ?? 0) > 0, "writes go to the WAL first")
        }
        #expect(size(path + "-wal") == 0, "kept, emptied to zero bytes")
        #expect(size(path + "-shm") != nil, "kept for the next process")
        // Everything is in the main file: without its WAL and index, it still has the rows.
        #expect(unlink(path + "-wal") == 0 && unlink(path + "-shm") == 0)
        #expect(try count(Connection(path: path)) == 3)
    }

    /// A writing connection checkpoints once its WAL holds as many bytes as the trimmed WAL
    /// keeps (16 MB), not at SQLite's default of 1,000 pages: 1,024 pages of a file it creates.
    @Test func aWriterCheckpointsAtTheTrimmedWALSize() throws {
        let db = try Connection(path: dir.file("autocheckpoint.sqlite"))
        #expect(try db.pageSize == 16384)
        #expect(try db.scalarInt("PRAGMA wal_autocheckpoint") == 1024)
        #expect(1024 * 16384 == Connection.walSizeLimitBytes)
    }

    /// A new file gets 16 KiB pages, however it is opened for writing; one made elsewhere with
    /// SQLite's default 4 KiB pages keeps them (and checkpoints after 4,096 of them), its rows
    /// intact and writable.
    @Test func aNewFileHasLargePagesAndAnOldFileKeepsItsOwn() throws {
        var exclusive = Connection.Options()
        exclusive.exclusiveWhenAlone = true
        var rollback = Connection.Options()
        rollback.walMode = false
        for (name, options) in [("plain", Connection.Options()), ("alone", exclusive), ("rollback", rollback)] {
            let path = dir.file("new-\(name).sqlite")
            do { try Connection(path: path, options: options).execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
            #expect(try Connection(path: path).pageSize == Connection.newFilePageSize, "\(name)")
        }
        // A 4 KiB file with a table, written by the sqlite3 shell (not by this code).
        let old = dir.file("old.sqlite")
        let made = ProcessSpawner.run("/usr/bin/sqlite3", [old, "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);"],
                                      environment: [:])
        #expect(made.status == 0, "\(made.stderr)")
        let db = try Connection(path: old)
        #expect(try db.pageSize == 4096)
        #expect(try db.scalarInt("PRAGMA wal_autocheckpoint") == 4096)
        try db.execute("INSERT INTO t VALUES (2)")
        #expect(try db.scalarInt("SELECT sum(x) FROM t") == 3)
        // An empty file made elsewhere (no page yet) is new: it gets the large pages.
        let empty = dir.file("empty.sqlite")
        #expect(creat(empty, 0o600) >= 0)
        #expect(try Connection(path: empty).pageSize == Connection.newFilePageSize)
    }

    /// A connection asked to map the file reads its pages through the map, and sees what
    /// another connection commits after it opened; by default nothing is mapped.
    @Test func aMappedConnectionReadsWhatOthersCommit() throws {
        let path = dir.file("mapped.sqlite")
        let writer = try Connection(path: path)
        try writer.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        #expect(try writer.scalarInt("PRAGMA mmap_size") == 0)
        var mapped = Connection.Options()
        mapped.memoryMapBytes = 1 << 20
        let reader = try Connection(path: path, options: mapped)
        #expect(try reader.scalarInt("PRAGMA mmap_size") == 1 << 20)
        #expect(try count(reader) == 1)
        try writer.execute("INSERT INTO t SELECT x + 1 FROM t; INSERT INTO t SELECT x + 2 FROM t")
        _ = try writer.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try count(reader) == 4)
        #expect(try reader.scalarInt("SELECT sum(x) FROM t") == 1 + 2 + 3 + 4)
    }

    @Test func aLoneConnectionHoldsTheFileUntilItCloses() throws {
        let path = dir.file("alone.sqlite")
        do { try Connection(path: path).execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
        var exclusive = Connection.Options()
        exclusive.exclusiveWhenAlone = true
        var impatient = Connection.Options()
        impatient.busyTimeoutMilliseconds = 0
        do {
            let owner = try Connection(path: path, options: exclusive)
            #expect(try owner.lockingMode == "exclusive")
            try owner.execute("INSERT INTO t VALUES (2)")
            #expect(throws: SQLiteError.self, "another connection cannot read meanwhile") {
                let other = try Connection(path: path, options: impatient)
                _ = try count(other)
            }
        }
        let after = try Connection(path: path, options: impatient)
        #expect(try count(after) == 2, "the write made under the exclusive lock is there for the next one")
    }

    @Test func withAnotherConnectionOpenItFallsBackToNormalLocking() throws {
        let path = dir.file("shared.sqlite")
        let first = try Connection(path: path)
        try first.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
        var exclusive = Connection.Options()
        exclusive.exclusiveWhenAlone = true
        let second = try Connection(path: path, options: exclusive)
        #expect(try second.lockingMode == "normal")
        try second.execute("INSERT INTO t VALUES (2)")
        try first.execute("INSERT INTO t VALUES (3)")
        #expect(try count(first) == 3)
        #expect(try count(second) == 3)
    }
}
