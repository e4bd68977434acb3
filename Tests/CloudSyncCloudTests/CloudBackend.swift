import CloudSyncCloud
import CloudSyncCore
import TestSupport

/// The backends the conformance suite runs against. Each test takes a backend argument, so a
/// new backend joins every case by being added here.
enum CloudBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite

    var description: String { rawValue }

    /// A fresh, empty cloud. Keep the returned fixture alive for the test's duration.
    func make() throws -> CloudFixture {
        switch self {
        case .sqlite:
            let dir = TemporaryDirectory("cloud-conformance")
            let clock = TestClock()
            let cloud = try SQLiteCloud(path: dir.file("cloud.sqlite"), clock: clock.read)
            return CloudFixture(cloud: cloud, directory: dir, clock: clock)
        }
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

/// Runs `body` and returns the CloudError it throws, or nil.
func cloudError(_ body: () throws -> Void) -> CloudError? {
    do { try body() } catch let error as CloudError { return error } catch { return CloudError(.internalError, "\(error)") }
    return nil
}
