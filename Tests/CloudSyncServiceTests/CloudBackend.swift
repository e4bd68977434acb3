import CloudSyncService
import CloudSyncCore
import CloudSyncPostgresCloud
import CloudSyncSQLiteCloud
import Glibc
import TestSupport

/// A backend the conformance suite runs against: how to get a fresh, empty store and open a
/// service on it. Every test takes a backend argument from `allCases`, so a new backend
/// (PostgreSQL, HTTP) joins every case by being added to that list.
struct CloudBackend: CustomStringConvertible, Sendable {
    let name: String
    /// The location of a fresh, empty store for one test; `directory` is the test's own folder.
    let freshLocation: @Sendable (_ directory: TemporaryDirectory) throws -> String
    /// Opens a service on the store at a location.
    let open: @Sendable (_ location: String, _ clock: @escaping CloudClock) throws -> any CloudService

    /// The backends every conformance case runs against.
    static let allCases: [CloudBackend] = [.sqlite, .memory, .postgres, .http]

    /// A PostgreSQL cloud with a pool of its own (`connections`, a wait of `maxWait` seconds for
    /// one), on a fresh schema: the pool and group-commit tests.
    static func pooledPostgres(connections: Int, maxWait: Double) throws -> (PostgresCloud, CloudFixture) {
        let fixture = try CloudBackend.postgres.make()
        return (try PostgresCloud(url: fixture.location, connections: connections, maxWait: maxWait), fixture)
    }

    /// Registers the backends the cases open by URL with `CloudLocator`, the same way the
    /// executable's composition root registers its own: SQLite, PostgreSQL and the memory
    /// storage (`memory:N`). Idempotent.
    static func registerBackends() {
        _ = registered
    }

    private static let registered: Bool = {
        CloudLocator.register(SQLiteCloud.backend)
        CloudLocator.register(PostgresCloud.backend)
        CloudLocator.register(MemoryCloudStorage.backend)
        return true
    }()

    /// Opens a location by its URL, as commands do.
    static func openByURL(_ location: String, clock: @escaping CloudClock) throws -> any CloudService {
        registerBackends()
        return try CloudLocator(parsing: location).open(clock: clock)
    }

    /// The embedded cloud: a new file in the test's folder, opened by its URL as commands do.
    static let sqlite = CloudBackend(name: "sqlite",
                                     freshLocation: { directory in "sqlite://" + directory.file("cloud.sqlite") },
                                     open: openByURL)

    /// `StorageBackedCloud` over `MemoryCloudStorage`: the rules with a storage that has no SQL.
    static let memory = CloudBackend(name: "memory", freshLocation: { _ in MemoryCloudStorage.fresh() }, open: openByURL)

    /// `PostgresCloud` on the test server (`CLOUDSYNC_TEST_POSTGRES_URL`, set by
    /// scripts/with-postgres): a fresh schema per case (`?schema=`). Without a server every case
    /// fails; it is never skipped.
    static let postgres = CloudBackend(name: "postgres", freshLocation: { _ in
        guard let base = getenv("CLOUDSYNC_TEST_POSTGRES_URL").map({ String(cString: $0) }), !base.isEmpty else {
            throw CloudError(.serviceUnavailable, "CLOUDSYNC_TEST_POSTGRES_URL is not set: run the tests under scripts/with-postgres")
        }
        var bytes = [UInt8](repeating: 0, count: 8)
        _ = getentropy(&bytes, bytes.count)
        let schema = "t_" + bytes.map { String($0, radix: 16) }.joined()
        return base + (base.contains("?") ? "&" : "?") + "schema=" + schema
    }, open: openByURL)

    var description: String { name }

    /// A fresh, empty cloud. Keep the returned fixture alive for the test's duration.
    func make() throws -> CloudFixture {
        let dir = TemporaryDirectory("cloud-conformance")
        let clock = TestClock()
        let location = try freshLocation(dir)
        let cloud = try open(location, clock.read)
        return CloudFixture(cloud: cloud, directory: dir, clock: clock, location: location)
    }

    /// The same cloud opened again, as another or a restarted process would.
    func reopen(_ fixture: CloudFixture) throws -> any CloudService {
        try open(fixture.location, fixture.clock.read)
    }
}

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private var now: Int64 = 1_700_000_000_000
    var read: CloudClock { { [self] in self.tick() } }
    private func tick() -> Int64 { now += 1; return now }
}

/// A cloud under test with its accounts and database requests at hand.
struct CloudFixture {
    let cloud: any CloudService
    let directory: TemporaryDirectory
    let clock: TestClock
    /// The cloud URL the fixture's cloud was opened from.
    let location: String
    let container = "iCloud.com.example.Tests"

    func request(_ account: String, _ scope: DatabaseScope = .private, device: String = "dev1") throws -> DatabaseRequest {
        let user = try cloud.account(named: account)
        return DatabaseRequest(container: container, scope: scope, userRecordName: user.userRecordName, deviceID: device)
    }

    func record(_ name: String, zone: String, _ request: DatabaseRequest, type: String = "Note",
                fields: [String: FieldValue] = [:]) -> Record {
        Record(recordID: RecordID(recordName: name, zoneID: request.zoneID(zone)), recordType: type, fields: fields)
    }

    /// Saves records and expects every one to succeed.
    @discardableResult
    func save(_ records: [Record], _ request: DatabaseRequest, policy: SavePolicy = .ifServerRecordUnchanged) throws -> [Record] {
        let result = try cloud.modifyRecords(ModifyRequest(saves: records, policy: policy), in: request)
        if let failure = result.partialFailure { throw failure }
        return result.saved
    }

    /// Every change of a zone from `token`, following moreComing.
    func allChanges(_ zone: String, since token: ServerChangeToken?, limit: Int = 1000,
                    _ request: DatabaseRequest) throws -> (changed: [Record], deleted: [RecordDeletion], token: ServerChangeToken, pages: Int) {
        var changed: [Record] = [], deleted: [RecordDeletion] = []
        var token = token
        var pages = 0
        while true {
            let page = try cloud.fetchZoneChanges(zone, since: token, limit: limit, in: request)
            pages += 1
            changed += page.changed
            deleted += page.deleted
            token = page.token
            if !page.moreComing { return (changed, deleted, page.token, pages) }
        }
    }
}
