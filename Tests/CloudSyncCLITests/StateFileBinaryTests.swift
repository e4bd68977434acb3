import CloudSyncCore
import Glibc
import TestSupport
import Testing

/// The state files and the global options that name them, through the built binary as a user
/// runs it: private files, no escape from the home, no cloud made of a typo, no device silently
/// started over, no file of a newer format touched.
@Suite("State files and the options that name them (binary)")
struct StateFileBinaryTests {
    let home = TemporaryDirectory("state-files")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    /// Runs the binary under `umask 022`, what a login shell usually has.
    func run(_ arguments: [String], env extra: [String: String] = [:], cwd: String? = nil) -> ProcessResult {
        var env = cli.environment
        for (k, v) in extra { env[k] = v }
        let script = "umask 022; \(cwd.map { "cd '\($0)' || exit 99; " } ?? "")exec \"$0\" \"$@\""
        return ProcessSpawner.run("/bin/sh", ["-c", script, BinaryRunner.cloudsyncPath] + arguments, environment: env)
    }

    func sqlite3(_ path: String, _ sql: String) -> String {
        let result = ProcessSpawner.run("/usr/bin/sqlite3", [path], environment: [:], stdin: sql)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").joined(separator: "\n")
    }

    /// One error line (usage errors add the usual "See 'cloudsync --help'." hint).
    func isOneLineError(_ result: ProcessResult) -> Bool {
        let lines = result.stderr.split(separator: "\n")
        return result.stderr.hasPrefix("cloudsync: error: ")
            && (lines.count == 1 || (lines.count == 2 && lines[1].hasPrefix("See 'cloudsync")))
    }

    /// Every regular file and folder under `root`, with its permission bits.
    func modes(under root: String) -> [(path: String, mode: mode_t, isFolder: Bool)] {
        var out: [(String, mode_t, Bool)] = []
        guard let dir = opendir(root) else { return [] }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = root + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            if kind == S_IFDIR {
                out.append((path, info.st_mode & 0o777, true))
                out += modes(under: path).map { ($0.path, $0.mode, $0.isFolder) }
            } else if kind == S_IFREG {
                out.append((path, info.st_mode & 0o777, false))
            }
        }
        return out
    }

    @Test func everyStateFileIsOwnerOnlyEvenWithUmask022() throws {
        #expect(run(["--device", "laptop", "zone", "create", "Notes"]).status == 0)
        #expect(run(["--device", "laptop", "kv", "set", "secret", "hunter2"]).status == 0)
        #expect(run(["--device", "laptop", "kv", "sync"]).status == 0)
        #expect(run(["--device", "laptop", "store", "put", "Todo", "milk", "--field", "title=Buy"]).status == 0)
        let state = modes(under: home.path).filter { !$0.path.hasPrefix(home.path + "/config") }
        #expect(state.contains { $0.path.hasSuffix("/cloud.sqlite-wal") }, "the WAL is among the files checked")
        #expect(state.contains { $0.path.hasSuffix("/laptop.sqlite") })
        for file in state where !file.isFolder {
            #expect(file.mode == 0o600, "\(file.path) is \(String(file.mode, radix: 8))")
        }
        for folder in state where folder.isFolder {
            #expect(folder.mode == 0o700, "\(folder.path) is \(String(folder.mode, radix: 8))")
        }
    }

    @Test func aWideCloudFileFromAnOlderBuildIsNarrowedOnOpen() throws {
        #expect(run(["zone", "create", "Notes"]).status == 0)  // makes the cloud (a read-only command does not)
        let cloud = home.file("cloud.sqlite")
        for file in [cloud, cloud + "-wal", cloud + "-shm"] { chmod(file, 0o644) }
        #expect(run(["zone", "list"]).status == 0)
        for file in [cloud, cloud + "-wal", cloud + "-shm"] {
            var info = stat()
            #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600, "\(file)")
        }
    }

    @Test func containersCannotEscapeTheHome() throws {
        let outside = TemporaryDirectory("state-outside")
        let escape = "../../../../../../../..\(outside.path)/x"
        let flag = run(["--container", escape, "keys", "unlock"], env: ["CLOUDSYNC_PASSPHRASE": "pw"])
        #expect(flag.status == 64)
        #expect(isOneLineError(flag) && flag.stderr.contains("invalid container") && flag.stderr.contains("--container"))
        let fromEnv = run(["keys", "unlock"], env: ["CLOUDSYNC_PASSPHRASE": "pw", "CLOUDSYNC_CONTAINER": escape])
        #expect(fromEnv.status == 64 && fromEnv.stderr.contains("$CLOUDSYNC_CONTAINER"))
        home.makeDirectory("config/cloudsync")
        home.write("config/cloudsync/config", "container = \(escape)\n")
        let fromConfig = run(["keys", "unlock"], env: ["CLOUDSYNC_PASSPHRASE": "pw"])
        #expect(fromConfig.status == 64 && fromConfig.stderr.contains("config:1"))
        #expect(modes(under: outside.path).isEmpty, "nothing written outside the home")
        #expect(run(["--container", "iCloud.com.example.Other", "zone", "list"]).status == 0)
    }

    @Test func aCloudNeedsAKnownScheme() throws {
        let cwd = TemporaryDirectory("state-cwd")
        for bad in ["foo", "garbage.sqlite", "/abs/cloud.sqlite", "nope://x"] {
            let result = run(["--cloud", bad, "zone", "list"], cwd: cwd.path)
            #expect(result.status == 64, "\(bad): \(result.stderr)")
            #expect(isOneLineError(result))
        }
        let fromEnv = run(["zone", "list"], env: ["CLOUDSYNC_CLOUD": "foo"], cwd: cwd.path)
        #expect(fromEnv.status == 64 && fromEnv.stderr.contains("$CLOUDSYNC_CLOUD"))
        home.makeDirectory("config/cloudsync")
        home.write("config/cloudsync/config", "cloud = garbage\n")
        let fromConfig = run(["zone", "list"], cwd: cwd.path)
        #expect(fromConfig.status == 64 && fromConfig.stderr.contains("config:1"))
        #expect(modes(under: cwd.path).isEmpty, "no cloud made in the current folder")
        // A server URL is the HTTP client: nothing listens on port 1, so the cloud is unreachable.
        let server = run(["--cloud", "http://127.0.0.1:1", "zone", "list"])
        #expect(server.status == 69 && server.stderr.contains("cannot reach the cloud"), "\(server.stderr)")
        // PostgreSQL is part of the build: a server that does not answer is 69, in one line.
        let noServer = run(["--cloud", "postgres://u@127.0.0.1:1/db", "zone", "list"])
        #expect(noServer.status == 69 && noServer.stderr.contains("cannot reach PostgreSQL"), "\(noServer.stderr)")
        #expect(isOneLineError(noServer))
    }

    @Test func dotNamesAreNoAccountsOrDevices() throws {
        for option in ["--account", "--device"] {
            for bad in [".", ".."] {
                let result = run([option, bad, "kv", "set", "k", "v"])
                #expect(result.status == 64 && isOneLineError(result), "\(option) \(bad)")
            }
        }
        #expect(TemporaryDirectory.readBytes(home.file("devices/alice.sqlite")) == nil)
        #expect(TemporaryDirectory.readBytes(home.file("devices.sqlite")) == nil)
    }

    @Test func anEmptiedDeviceFileIsRefusedAndAnEmptiedCloudIsANewOne() throws {
        #expect(run(["--device", "laptop", "store", "put", "Todo", "milk", "--field", "title=Buy"]).status == 0)
        #expect(run(["--device", "laptop", "zone", "create", "Notes"]).status == 0)  // makes the cloud
        let device = home.file("devices/alice/laptop.sqlite")
        #expect(truncate(device, 0) == 0)
        let refused = run(["--device", "laptop", "kv", "list"])
        #expect(refused.status == 65)
        #expect(isOneLineError(refused) && refused.stderr.contains("move the file away"))
        #expect(TemporaryDirectory.readBytes(device)?.count == 0)

        let cloud = home.file("cloud.sqlite")
        let before = sqlite3(cloud, "SELECT value FROM meta WHERE key='epoch';")
        #expect(truncate(cloud, 0) == 0)
        #expect(run(["--device", "phone", "zone", "list"]).status == 0)
        let after = sqlite3(cloud, "SELECT value FROM meta WHERE key='epoch';")
        #expect(after.count == 16 && after != before, "a new store epoch")
    }

    @Test func olderFormatsUpgradeAndNewerOnesAreRefusedWith69() throws {
        #expect(run(["--device", "laptop", "kv", "set", "k", "v"]).status == 0)
        let device = home.file("devices/alice/laptop.sqlite")
        let cloud = home.file("cloud.sqlite")
        // A version-1 device file, as the first ladder step wrote it.
        let old = home.file("devices/alice/old.sqlite")
        _ = sqlite3(old, """
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE database_tokens(container TEXT NOT NULL, scope TEXT NOT NULL, token TEXT NOT NULL,
                updated_ms INTEGER NOT NULL, PRIMARY KEY(container, scope));
            CREATE TABLE zone_tokens(container TEXT NOT NULL, scope TEXT NOT NULL, zone_name TEXT NOT NULL,
                owner TEXT NOT NULL, token TEXT NOT NULL, updated_ms INTEGER NOT NULL,
                PRIMARY KEY(container, scope, zone_name, owner));
            CREATE TABLE cached_records(container TEXT NOT NULL, scope TEXT NOT NULL, zone_name TEXT NOT NULL,
                owner TEXT NOT NULL, record_name TEXT NOT NULL, record_type TEXT NOT NULL, change_tag TEXT NOT NULL,
                fields TEXT NOT NULL, created_ms INTEGER NOT NULL, created_user TEXT NOT NULL,
                created_device TEXT NOT NULL, modified_ms INTEGER NOT NULL, modified_user TEXT NOT NULL,
                modified_device TEXT NOT NULL,
                PRIMARY KEY(container, scope, zone_name, owner, record_name)) WITHOUT ROWID;
            INSERT INTO meta VALUES ('format', 'cloudsync-device');
            PRAGMA user_version=1;
            """)
        let upgraded = run(["--device", "old", "kv", "sync"])
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        #expect(sqlite3(old, "PRAGMA user_version; SELECT count(*) FROM kv_local;") == "3\n0")

        _ = sqlite3(device, "PRAGMA user_version=99;")
        let newerDevice = run(["--device", "laptop", "kv", "list"])
        #expect(newerDevice.status == 69 && isOneLineError(newerDevice) && newerDevice.stderr.contains("version 99"))
        _ = sqlite3(cloud, "PRAGMA user_version=99;")
        let newerCloud = run(["--device", "old", "zone", "list"])
        #expect(newerCloud.status == 69 && isOneLineError(newerCloud) && newerCloud.stderr.contains("version 99"))
        #expect(sqlite3(cloud, "PRAGMA user_version;") == "99")
    }
}
