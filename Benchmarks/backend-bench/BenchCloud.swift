import BenchSupport
import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// What every part does to a cloud of any backend (`SQLiteCloud`, `PostgresCloud`, `HTTPCloud`):
/// the bench account's request, saving generated records in calls of 400, fetching a whole
/// database into a fresh device.
enum BenchCloud {
    static let container = "iCloud.com.example.Bench"
    static let zoneName = "Items"

    static func request(_ cloud: any CloudService, account: String = "bench", device: String = "bench-device") throws -> DatabaseRequest {
        let user = try cloud.account(named: account)
        return DatabaseRequest(container: container, scope: .private, userRecordName: user.userRecordName, deviceID: device)
    }

    /// Saves `record` alone, as a client does, and returns the call's milliseconds: a busy
    /// server's 503 (`serviceUnavailable`) is tried again after its `retryAfter`, at most 20 times.
    static func timedSave(_ record: Record, with cloud: any CloudService, in request: DatabaseRequest) throws -> Double {
        let callStart = Clock.now()
        var attempt = 0
        while true {
            do {
                let result = try cloud.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: request)
                if let failure = result.partialFailure { throw BenchFailure("save failed: \(failure)") }
                return (Clock.now() - callStart) * 1000
            } catch let error as CloudError where error.code == .serviceUnavailable && attempt < 20 {
                attempt += 1
                usleep(UInt32((error.retryAfter ?? 0.05) * 1_000_000))
            }
        }
    }

    /// Record `index`: a ~20-character STRING, an INT64 and a DOUBLE (the shape cloudsync-bench uses).
    static func record(_ index: Int, prefix: String = "rec-", zone: ZoneID) -> Record {
        let digits = String(index)
        let padded = String(repeating: "0", count: max(0, 7 - digits.count)) + digits
        return Record(recordID: RecordID(recordName: prefix + padded, zoneID: zone), recordType: "Item",
                      fields: ["title": .string("Sample title " + padded), "count": .int64(Int64(index)),
                               "score": .double(Double(index % 1000) * 0.125 + 0.5)])
    }

    /// Batches of 400 records `range`, built before any timing.
    static func batches(_ range: Range<Int>, prefix: String = "rec-", zone: ZoneID) -> [[Record]] {
        stride(from: range.lowerBound, to: range.upperBound, by: CloudLimits.maxRecordsPerModify).map { start in
            (start..<min(start + CloudLimits.maxRecordsPerModify, range.upperBound)).map { record($0, prefix: prefix, zone: zone) }
        }
    }

    /// Saves new records (`ifServerRecordUnchanged` without change tags: creations, as
    /// cloudsync-bench saves them).
    static func save(_ batch: [Record], _ cloud: any CloudService, _ request: DatabaseRequest) throws {
        let result = try cloud.modifyRecords(ModifyRequest(saves: batch, policy: .ifServerRecordUnchanged), in: request)
        if let failure = result.partialFailure { throw BenchFailure("save failed: \(failure)") }
        guard result.saved.count == batch.count else { throw BenchFailure("saved \(result.saved.count) of \(batch.count)") }
    }

    /// Creates the zone, then saves `count` records; returns the seconds of the saves alone
    /// (batches are prepared batch by batch when `prebuilt` is nil, to keep memory flat).
    @discardableResult
    static func fill(_ cloud: any CloudService, _ request: DatabaseRequest, count: Int, prebuilt: [[Record]]? = nil,
                     label: String) throws -> Double {
        _ = try cloud.saveZones([ZoneSpec(name: zoneName)], in: request)
        let zone = request.zoneID(zoneName)
        let start = Clock.now()
        if let prebuilt {
            for batch in prebuilt { try save(batch, cloud, request) }
        } else {
            var next = 0
            while next < count {
                let end = min(next + CloudLimits.maxRecordsPerModify, count)
                try save((next..<end).map { record($0, zone: zone) }, cloud, request)
                next = end
                if next % 100_000 == 0 { log("    \(label): \(next) records (\(fixed(Clock.now() - start)) s)") }
            }
        }
        return Clock.now() - start
    }

    /// Seconds to open a fresh device file and fetch every change of the database into it.
    static func fetchFresh(_ cloud: any CloudService, _ request: DatabaseRequest, devicePath: String, expect: Int) throws -> Double {
        let start = Clock.now()
        let store = try DeviceStore(path: devicePath)
        let summary = try ChangeFetcher(cloud: cloud, store: store, request: request).fetch()
        let seconds = Clock.now() - start
        guard summary.changedRecords == expect else { throw BenchFailure("fetched \(summary.changedRecords), expected \(expect)") }
        return seconds
    }

    /// Median of `runs` values of `body`.
    static func median(_ runs: Int, _ body: (Int) throws -> Double) throws -> Double {
        var samples: [Double] = []
        for run in 1...runs { samples.append(try body(run)) }
        return LatencyStats(samples).quantile(0.5)
    }
}
