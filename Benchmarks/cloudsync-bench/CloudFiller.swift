import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore

/// Creates bench clouds: a fresh cloud file with the bench zone, filled with sample records
/// through the public API in calls of 400 records.
enum CloudFiller {
    /// An open cloud with the bench zone and the request that addresses it.
    struct Handle {
        var cloud: SQLiteCloud
        var request: DatabaseRequest
        var zoneID: ZoneID { request.zoneID(BenchSetup.zoneName) }
    }

    /// Opens the cloud at `path` (creating the file if missing) and makes sure the zone exists.
    static func open(_ path: String) throws -> Handle {
        let cloud = try SQLiteCloud(path: path)
        let request = try BenchSetup.request(cloud)
        _ = try cloud.saveZones([ZoneSpec(name: BenchSetup.zoneName)], in: request)
        return Handle(cloud: cloud, request: request)
    }

    /// Saves one batch as new records; any per-item failure is fatal for the bench.
    static func save(_ batch: [Record], _ handle: Handle) throws {
        let result = try handle.cloud.modifyRecords(ModifyRequest(saves: batch, policy: .ifServerRecordUnchanged),
                                                    in: handle.request)
        if let failure = result.partialFailure { throw BenchError("save failed: \(failure)") }
        guard result.saved.count == batch.count else {
            throw BenchError("saved \(result.saved.count) of \(batch.count) records")
        }
    }

    /// Fills a fresh cloud at `path` with `count` records (generated batch by batch, so memory
    /// stays flat). Returns the elapsed seconds.
    static func fill(_ path: String, count: Int, label: String) throws -> Double {
        let start = MonotonicClock.now()
        let handle = try open(path)
        let batch = CloudLimits.maxRecordsPerModify
        let step = max(batch, (count / 10) / batch * batch)
        var next = 0
        while next < count {
            let end = min(next + batch, count)
            try save((next..<end).map { SampleRecords.record($0, zone: handle.zoneID) }, handle)
            next = end
            if next % step == 0 || next == count {
                let elapsed = MonotonicClock.now() - start
                Log.line("  \(label): \(next) records saved (\(Log.fixed(elapsed)) s, \(Int(Double(next) / elapsed)) rows/s)")
            }
        }
        return MonotonicClock.now() - start
    }

    /// Live records of the bench zone, as the cloud counts them.
    static func recordCount(_ handle: Handle) throws -> Int {
        try handle.cloud.fetchAllZones(in: handle.request).first { $0.zoneID.zoneName == BenchSetup.zoneName }?.recordCount ?? 0
    }
}
