import CloudSyncCore
import CloudSyncSQLite
import Glibc
import TestSupport
import Testing

@Suite("Migrator: one ladder for every file format")
struct MigratorTests {
    let dir = TemporaryDirectory("sqlite-migrator")

    static let ladder = Migrator(format: "toy", fileKind: "toy file", steps: [
        Migrator.Step(version: 1, sql: "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE a(x);"),
        Migrator.Step(version: 2, sql: "CREATE TABLE b(y);"),
        Migrator.Step(version: 3, sql: "ALTER TABLE a ADD COLUMN z DEFAULT 7;"),
    ])

    func tables(_ db: Connection) throws -> [String] {
        try db.query("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name") { $0.string(0) }
    }

    @Test func createsAnEmptyFileAtTheLatestVersion() throws {
        let db = try Connection(path: dir.file("new.sqlite"))
        var created = false
        #expect(try MigratorTests.ladder.prepare(db, path: db.path) { _ in created = true })
        #expect(created)
        #expect(try db.userVersion == 3)
        #expect(try MigratorTests.ladder.readMark(db) == Migrator.Mark(format: "toy", version: 3))
        #expect(try tables(db) == ["a", "b", "meta"])
        #expect(try !MigratorTests.ladder.prepare(db, path: db.path), "an up-to-date file is left alone")
    }

    @Test(arguments: [1, 2] as [Int64])
    func upgradesEachOlderVersionKeepingItsRows(from version: Int64) throws {
        let path = dir.file("v\(version).sqlite")
        do {
            let db = try Connection(path: path)
            try db.transaction { try MigratorTests.ladder.apply(db, upTo: version) }
            try db.execute("INSERT INTO a(x) VALUES (42)")
        }
        #expect(try Connection(path: path).userVersion == version)
        let db = try Connection(path: path)
        #expect(try !MigratorTests.ladder.prepare(db, path: path))
        #expect(try db.userVersion == 3)
        #expect(try db.scalarInt("SELECT x + z FROM a") == 49)
        #expect(try tables(db) == ["a", "b", "meta"])
    }

    @Test func refusesANewerFileWithoutTouchingIt() throws {
        let path = dir.file("newer.sqlite")
        do {
            let db = try Connection(path: path)
            try db.transaction { try MigratorTests.ladder.apply(db, upTo: 3) }
            try db.setUserVersion(9)
        }
        let db = try Connection(path: path)
        #expect(throws: MigrationError.newerFormat(path: path, fileKind: "toy file", version: 9, supported: 3)) {
            try MigratorTests.ladder.prepare(db, path: path)
        }
        #expect(try db.userVersion == 9)
        let message = MigrationError.newerFormat(path: path, fileKind: "toy file", version: 9, supported: 3).description
        #expect(!message.contains("\n") && message.contains("version 9") && message.contains("upgrade cloudsync"))
    }

    @Test func refusesForeignFiles() throws {
        let other = try Connection(path: dir.file("other.sqlite"))
        try other.execute("CREATE TABLE t(x)")
        #expect(throws: MigrationError.foreignFile(path: other.path, fileKind: "toy file")) {
            try MigratorTests.ladder.prepare(other, path: other.path)
        }
        let marked = try Connection(path: dir.file("marked.sqlite"))
        try marked.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format', 'else')")
        #expect(throws: MigrationError.self) { try MigratorTests.ladder.prepare(marked, path: marked.path) }
    }

    @Test func aFailingStepLeavesTheOlderVersion() throws {
        let path = dir.file("failing.sqlite")
        do {
            let db = try Connection(path: path)
            try db.transaction { try MigratorTests.ladder.apply(db, upTo: 1) }
            try db.execute("CREATE TABLE b(taken)")   // step 2 will fail on it
        }
        let db = try Connection(path: path)
        #expect(throws: SQLiteError.self) { try MigratorTests.ladder.prepare(db, path: path) }
        #expect(try db.userVersion == 1)
    }
}

@Suite("Connection: file modes of state files")
struct ConnectionFileModeTests {
    let dir = TemporaryDirectory("sqlite-modes")

    func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    /// Runs `body` with the process umask set to 022 (what a login shell usually has).
    func withUmask022<T>(_ body: () throws -> T) rethrows -> T {
        let old = umask(0o022)
        defer { umask(old) }
        return try body()
    }

    @Test func newFilesAndTheirWALAndIndexAre0600() throws {
        let path = dir.file("secret.sqlite")
        var options = Connection.Options()
        options.fileMode = 0o600
        try withUmask022 {
            let db = try Connection(path: path, options: options)
            try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES ('private')")
            #expect(mode(path) == 0o600)
            #expect(mode(path + "-wal") == 0o600)
            #expect(mode(path + "-shm") == 0o600)
        }
    }

    @Test func existingWideFilesAreNarrowedOnOpen() throws {
        let path = dir.file("wide.sqlite")
        try withUmask022 {
            do {
                let db = try Connection(path: path)
                try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
            }
            #expect(mode(path) == 0o644 && mode(path + "-wal") == 0o644 && mode(path + "-shm") == 0o644)
            var options = Connection.Options()
            options.fileMode = 0o600
            let db = try Connection(path: path, options: options)
            #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
            #expect(mode(path) == 0o600 && mode(path + "-wal") == 0o600 && mode(path + "-shm") == 0o600)
        }
    }
}
