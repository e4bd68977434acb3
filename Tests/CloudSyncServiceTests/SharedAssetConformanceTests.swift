import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// Assets through the shared database (issue 18 follow-up) on every backend: a participant reads
/// an asset only through a record of a zone shared with them that references it, never an asset
/// of another zone of the owner.
@Suite("Sharing: assets (conformance)")
struct SharedAssetConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func aParticipantReadsOnlyTheAssetsOfRecordsSharedWithThem(_ backend: CloudBackend) throws {
        let w = try SharingConformanceTests.World(backend)
        let f = w.f
        // Alice's unshared zone Diary holds a secret asset; her shared zone Trips a photo.
        _ = try f.cloud.saveZones([ZoneSpec(name: "Diary")], in: w.alice)
        let secret = try f.cloud.uploadAssets([Array("dear diary".utf8)], in: w.alice)[0]
        let photo = try f.cloud.uploadAssets([Array("a photo of Rome".utf8)], in: w.alice)[0]
        try f.save([f.record("day1", zone: "Diary", w.alice, type: "Entry", fields: ["file": .asset(secret)])], w.alice)
        try f.save([f.record("florence", zone: "Trips", w.alice, type: "Trip",
                             fields: ["city": .string("Florence"), "photos": .list(.asset, [.asset(photo)])])], w.alice)
        let bob = try w.shared("bob")
        _ = try w.sharing.addParticipants(["bob"], permission: .readWrite, zoneName: "Trips", in: w.alice)
        _ = try w.sharing.acceptShare(url: w.share.url, in: bob)
        let rome = RecordID(recordName: "florence", zoneID: bob.zoneID("Trips"))
        let day1 = RecordID(recordName: "day1", zoneID: bob.zoneID("Diary"))

        #expect(try f.cloud.fetchAsset(photo, of: rome, in: bob) == Array("a photo of Rome".utf8))
        // Not through a record of a zone not shared with him (3, as the record itself) ...
        #expect(cloudError { _ = try f.cloud.fetchAsset(secret, of: day1, in: bob) }?.code == .zoneNotFound)
        // ... nor through a shared record that does not reference it, nor without a record.
        #expect(cloudError { _ = try f.cloud.fetchAsset(secret, of: rome, in: bob) }?.code == .assetFileNotFound)
        #expect(cloudError { _ = try f.cloud.fetchAsset(secret, in: bob) } != nil)
        #expect(cloudError { _ = try f.cloud.fetchAsset(photo, in: bob) }?.code == .invalidArguments)
        // A non-participant gets 3 reading and 77 uploading.
        let carol = try w.shared("carol")
        #expect(cloudError { _ = try f.cloud.fetchAsset(photo, of: rome, in: carol) }?.code == .zoneNotFound)
        #expect(cloudError { _ = try f.cloud.uploadAssets([[1, 2, 3]], in: carol) }?.code == .permissionFailure)
        // Once removed, Bob reads nothing more.
        _ = try w.sharing.removeParticipants(["bob"], zoneName: "Trips", in: w.alice)
        #expect(cloudError { _ = try f.cloud.fetchAsset(photo, of: rome, in: bob) }?.code == .zoneNotFound)
    }
}
