import CloudSyncService
import CloudSyncCore

/// One pending record prepared for the cloud.
struct OutgoingRecord {
    var row: PendingRow
    var recordID: RecordID
    var local: LocalRecord?
    var cached: Record?
    /// The record to save (nil: a deletion, or a record type the adapter does not handle).
    var record: Record?
    /// The outgoing fields as JSON text when they are the local fields as stored.
    var fieldsJSON: String?

    /// The key of the record in the local store.
    var key: LocalRecordKey { LocalRecordKey(zoneName: row.zoneName, recordName: row.recordName) }
    /// The record as `zone/name`, the form of `Synchronizer.BatchOutcome.failed`.
    var path: String { row.zoneName + "/" + row.recordName }
}

/// A batch of pending records prepared for one modify call (see `Synchronizer.pushBatch`):
/// the outgoing records in pending order, indexed by record for matching the cloud's answers
/// (a linear search each was 400 x 400 string comparisons per batch), and the asset blobs to
/// upload before the records that name them.
struct OutgoingBatch {
    private(set) var items: [OutgoingRecord] = []
    /// The asset blobs the outgoing fields name, in upload order.
    var blobs: [[UInt8]] = []
    private var index: [LocalRecordKey: Int] = [:]

    init(capacity: Int) {
        items.reserveCapacity(capacity)
        index.reserveCapacity(capacity)
    }

    /// Adds a record (the batch holds each record once).
    mutating func append(_ item: OutgoingRecord) {
        index[item.key] = items.count
        items.append(item)
    }

    /// The item of `id`, if it is in this batch.
    func item(_ id: RecordID) -> OutgoingRecord? { position(of: id).map { items[$0] } }

    /// Where `id` is in `items`, if it is in this batch.
    func position(of id: RecordID) -> Int? {
        index[LocalRecordKey(zoneName: id.zoneID.zoneName, recordName: id.recordName)]
    }

    /// Whether the record of a pending row is in this batch.
    func contains(_ row: PendingRow) -> Bool {
        index[LocalRecordKey(zoneName: row.zoneName, recordName: row.recordName)] != nil
    }

    /// The records to save.
    var saves: [Record] { items.compactMap(\.record) }
    /// The records to delete: deleted here, known to the cloud.
    var deletes: [RecordID] { items.filter { $0.local == nil && $0.cached != nil }.map(\.recordID) }
    /// Records deleted here that the cloud never had: nothing to send.
    var neverUploaded: [OutgoingRecord] { items.filter { $0.local == nil && $0.cached == nil } }

    /// The local fields as stored, edit time spliced in, so the cloud need not encode them again.
    var encodedFields: [RecordID: String] {
        var encoded: [RecordID: String] = [:]
        encoded.reserveCapacity(items.count)
        for item in items { if let json = item.fieldsJSON { encoded[item.recordID] = json } }
        return encoded
    }
}
