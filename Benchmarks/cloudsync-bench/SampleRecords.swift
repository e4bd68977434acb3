import CloudSyncService
import CloudSyncCore

/// The deterministic small records of the bench: a ~20-character STRING `title`, an INT64
/// `count` and a DOUBLE `score`.
enum SampleRecords {
    /// Record `index` (0-based) with the name `prefix` + a 7-digit number.
    static func record(_ index: Int, prefix: String = "rec-", zone: ZoneID) -> Record {
        let digits = String(index)
        let padded = String(repeating: "0", count: max(0, 7 - digits.count)) + digits
        return Record(recordID: RecordID(recordName: prefix + padded, zoneID: zone),
                      recordType: BenchSetup.recordType,
                      fields: ["title": .string("Sample title " + padded),
                               "count": .int64(Int64(index)),
                               "score": .double(Double(index % 1000) * 0.125 + 0.5)])
    }

    /// Records `range` in batches of at most `batchSize` (the cloud takes 400 per call).
    static func batches(_ range: Range<Int>, batchSize: Int = CloudLimits.maxRecordsPerModify,
                        zone: ZoneID) -> [[Record]] {
        stride(from: range.lowerBound, to: range.upperBound, by: batchSize).map { start in
            (start..<min(start + batchSize, range.upperBound)).map { record($0, zone: zone) }
        }
    }
}
