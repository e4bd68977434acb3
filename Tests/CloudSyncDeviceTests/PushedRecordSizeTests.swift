import CloudSyncService
import CloudSyncCore
@testable import CloudSyncDevice
import TestSupport
import Testing

/// A local write the cloud would refuse is refused when it is written (issue 17, items 2 and 5).
@Suite("Local put: the cloud's rules")
struct PushedRecordSizeTests {
    let container = "iCloud.com.example.DeviceTests"
    let zone = LocalStoreDefaults.zoneName

    func putError(_ store: DeviceStore, _ name: String, _ fields: [String: FieldValue], type: String = "Note") -> CloudError? {
        do {
            try store.put(container: container, zone: zone, name: name, type: type, fields: fields, device: "d", now: 1)
            return nil
        } catch {
            return error
        }
    }

    /// The estimate is exactly the size of the record a push sends (edit time, encrypted
    /// fields sealed, BYTES as assets), measured the way the cloud measures it.
    @Test func theEstimateIsTheSizeOfWhatAPushSends() throws {
        let local = LocalRecord(zoneName: zone, recordName: "n1", recordType: "Note",
                                fields: ["secret": .bytes(Array(repeating: 9, count: 1000)), "title": .string("hello"),
                                         "blob": .bytes(Array(repeating: 1, count: 5000)), "n": .int64(3),
                                         "pics": .list(.bytes, [.bytes([1]), .bytes([2, 3])])],
                                modified: 7)
        let adapter = EncryptingAdapter(wrapping: GenericStoreAdapter(), encryptedFields: ["Note": ["secret", "title"]],
                                        key: Array(repeating: 3, count: 32))
        var blobs: [[UInt8]] = []
        let fields = try AssetCoding.assetize(adapter.outgoingFields(local), recordType: "Note", adapter: adapter, collect: &blobs)
        let pushed = Record(recordID: RecordID(recordName: "n1", zoneID: ZoneID(zoneName: zone, ownerRecordName: "_o")),
                            recordType: "Note", fields: EditTime.adding(local.modified, to: fields))
        #expect(PushedRecordSize.estimate(recordName: "n1", recordType: "Note", fields: local.fields,
                                          encrypted: ["secret", "title"], inlineBytes: false) == pushed.estimatedSize)
        let inline = Record(recordID: pushed.recordID, recordType: "Note", fields: EditTime.adding(7, to: local.fields))
        #expect(PushedRecordSize.estimate(recordName: "n1", recordType: "Note", fields: local.fields, encrypted: [],
                                          inlineBytes: true) == inline.estimatedSize)
    }

    @Test func aRecordOverTheLimitOncePushedIsRefusedAndNothingIsStored() throws {
        let dir = TemporaryDirectory("pushed-size")
        let store = try DeviceStore(path: dir.file("d.sqlite"))
        let big = String(repeating: "x", count: CloudLimits.maxRecordSize)
        let error = putError(store, "n1", ["title": .string(big)])
        #expect(error?.code == .limitExceeded)
        #expect(try store.localRecord(container: container, zone: zone, name: "n1") == nil)
        #expect(try store.pendingCount(container: container) == 0)
        #expect(try store.history(container: container).isEmpty)
        // BYTES travel as assets: 2 MB is fine (the local store takes up to 50 MB)…
        let blob = FieldValue.bytes(Array(repeating: 1, count: 2 * CloudLimits.maxRecordSize))
        #expect(putError(store, "n2", ["blob": blob]) == nil)
        // …unless force-data keeps them inline, or the field is encrypted (sealed inline).
        try store.setSyncState(container: container, PushedRecordSize.forceDataStateKey, "on")
        #expect(putError(store, "n3", ["blob": blob])?.code == .limitExceeded)
        try store.setSyncState(container: container, PushedRecordSize.forceDataStateKey, nil)
        try EncryptionMarks.add(["blob"], recordType: "Secret", store: store, container: container)
        #expect(putError(store, "n4", ["blob": blob], type: "Secret")?.code == .limitExceeded)
        // An update that grows a record past the limit is refused; the record keeps its old fields.
        let half = String(repeating: "y", count: CloudLimits.maxRecordSize / 2)
        #expect(putError(store, "n5", ["a": .string(half)]) == nil)
        #expect(putError(store, "n5", ["b": .string(half)])?.code == .limitExceeded)
        #expect(try store.localRecord(container: container, zone: zone, name: "n5")?.fields.keys.sorted() == ["a"])
    }

    @Test(arguments: ["CD_editedAt", "CD_other", "recordName", "creationDate", "modificationDate"])
    func reservedFieldNamesAreRefused(field: String) throws {
        let dir = TemporaryDirectory("reserved-field")
        let store = try DeviceStore(path: dir.file("d.sqlite"))
        let error = putError(store, "n1", [field: .timestamp(5)])
        #expect(error?.code == .invalidArguments)
        #expect(error?.reason.contains("'\(field)'") == true)
        #expect(try store.localRecord(container: container, zone: zone, name: "n1") == nil)
    }
}
