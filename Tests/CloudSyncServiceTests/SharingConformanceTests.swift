import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// Zone sharing (issue 18) on every backend: the rules of `StorageBackedCloud+Sharing` and
/// `StorageBackedCloud+SharedAccess`.
@Suite("Sharing (conformance)")
struct SharingConformanceTests {
    /// Alice's zone `Trips` with one record, shared; her private request.
    struct World {
        let f: CloudFixture
        let alice: DatabaseRequest
        let share: Share
        var sharing: any SharingService { f.cloud as! any SharingService }

        init(_ backend: CloudBackend, publicPermission: SharePermission? = nil) throws {
            f = try backend.make()
            alice = try f.request("alice")
            _ = try f.cloud.saveZones([ZoneSpec(name: "Trips")], in: alice)
            try f.save([f.record("rome", zone: "Trips", alice, type: "Trip", fields: ["city": .string("Rome")])], alice)
            share = try (f.cloud as! any SharingService).saveShare(zoneName: "Trips", title: "Our trips",
                                                                   publicPermission: publicPermission, in: alice)
        }

        /// `account`'s shared database, addressing Alice's zones.
        func shared(_ account: String, device: String = "dev1") throws -> DatabaseRequest {
            try f.request(account, .shared, device: device).owned(by: alice.userRecordName)
        }

        func trip(_ name: String, _ request: DatabaseRequest, city: String) -> Record {
            f.record(name, zone: "Trips", request, type: "Trip", fields: ["city": .string(city)])
        }
    }

    @Test(arguments: CloudBackend.allCases)
    func shareIsARecordInTheOwnersZone(_ backend: CloudBackend) throws {
        let w = try World(backend)
        #expect(w.share.url.hasPrefix(ShareURL.prefix))
        #expect(w.share.title == "Our trips" && w.share.publicPermission == SharePermission.none)
        #expect(w.share.zoneID == ZoneID(zoneName: "Trips", ownerRecordName: w.alice.userRecordName))
        let changes = try w.f.allChanges("Trips", since: nil, w.alice)
        let record = try #require(changes.changed.first { $0.recordID.recordName == Share.recordName })
        #expect(record.recordType == Share.recordType && record.fields["url"] == .string(w.share.url))
        // The owner changes it through the share calls only.
        let direct = try w.f.cloud.modifyRecords(ModifyRequest(deletes: [record.recordID]), in: w.alice)
        #expect(direct.errors.values.first?.code == .invalidArguments)
        #expect(try w.sharing.ownedShares(zoneName: nil, in: w.alice).map(\.url) == [w.share.url])
    }

    @Test(arguments: CloudBackend.allCases)
    func inviteAcceptReadRefusedWriteUpgradeWrite(_ backend: CloudBackend) throws {
        let w = try World(backend)
        let bob = try w.shared("bob")
        _ = try w.sharing.addParticipants(["bob"], permission: .readOnly, zoneName: "Trips", in: w.alice)
        // Invited but not accepted: nothing to read yet.
        #expect(try w.f.cloud.fetchAllZones(in: bob).isEmpty)
        #expect(cloudError { _ = try w.f.cloud.queryRecords(RecordQuery(recordType: "Trip", zoneName: "Trips"), in: bob) }?.code == .zoneNotFound)
        let accepted = try w.sharing.acceptShare(url: w.share.url, in: bob)
        #expect(accepted.participant(bob.userRecordName)?.acceptance == .accepted)
        #expect(try w.f.cloud.fetchAllZones(in: bob).map(\.zoneID) == [ZoneID(zoneName: "Trips", ownerRecordName: w.alice.userRecordName)])
        let rome = RecordID(recordName: "rome", zoneID: bob.zoneID("Trips"))
        #expect(try w.f.cloud.fetchRecords([rome], in: bob)[rome]?.get().fields["city"] == .string("Rome"))
        #expect(try w.f.cloud.queryRecords(RecordQuery(recordType: "Trip", zoneName: "Trips"), in: bob).records.count == 1)
        // Read-only: 77 on save and delete.
        #expect(cloudError { try w.f.save([w.trip("oslo", bob, city: "Oslo")], bob) }?.code == .permissionFailure)
        #expect(cloudError { _ = try w.f.cloud.modifyRecords(ModifyRequest(deletes: [rome]), in: bob) }?.code == .permissionFailure)
        // Upgraded: saves land in Alice's zone, stamped by Bob, in Alice's private changes.
        _ = try w.sharing.addParticipants(["bob"], permission: .readWrite, zoneName: "Trips", in: w.alice)
        let saved = try w.f.save([w.trip("oslo", bob, city: "Oslo")], bob)[0]
        #expect(saved.recordID.zoneID.ownerRecordName == w.alice.userRecordName)
        #expect(saved.system?.modified.userRecordName == bob.userRecordName)
        let ownerView = try w.f.allChanges("Trips", since: nil, w.alice)
        #expect(ownerView.changed.contains { $0.recordID.recordName == "oslo" })
        _ = try w.f.cloud.modifyRecords(ModifyRequest(deletes: [rome]), in: bob)
        #expect(try w.f.allChanges("Trips", since: ownerView.token, w.alice).deleted.map(\.recordID.recordName) == ["rome"])
        // ... but never the share.
        let shareID = RecordID(recordName: Share.recordName, zoneID: bob.zoneID("Trips"))
        #expect(try w.f.cloud.modifyRecords(ModifyRequest(deletes: [shareID]), in: bob).errors[shareID]?.code == .permissionFailure)
        #expect(cloudError { _ = try w.sharing.saveShare(zoneName: "Trips", title: "mine", publicPermission: .readWrite, in: bob) }?.code == .invalidArguments)
    }

    @Test(arguments: CloudBackend.allCases)
    func nonParticipantsCannotReadNorWriteNorAccept(_ backend: CloudBackend) throws {
        let w = try World(backend)
        let carol = try w.shared("carol")
        #expect(cloudError { _ = try w.sharing.acceptShare(url: w.share.url, in: carol) }?.code == .permissionFailure)
        let rome = RecordID(recordName: "rome", zoneID: carol.zoneID("Trips"))
        #expect(throws: CloudError.self) { try w.f.cloud.fetchRecords([rome], in: carol)[rome]?.get() }
        #expect((try? w.f.cloud.fetchRecords([rome], in: carol)[rome]?.get()) == nil)
        if case .failure(let error)? = try w.f.cloud.fetchRecords([rome], in: carol)[rome] { #expect(error.code == .zoneNotFound) }
        #expect(cloudError { _ = try w.f.cloud.fetchZoneChanges("Trips", since: nil, limit: 10, in: carol) }?.code == .zoneNotFound)
        #expect(cloudError { try w.f.save([w.trip("evil", carol, city: "X")], carol) }?.code == .permissionFailure)
        #expect(cloudError { _ = try w.sharing.acceptShare(url: "https://example.com/share", in: carol) }?.code == .invalidArguments)
    }

    @Test(arguments: CloudBackend.allCases)
    func publicPermissionLetsAnyoneWithTheURLAccept(_ backend: CloudBackend) throws {
        let w = try World(backend, publicPermission: .readOnly)
        let dave = try w.shared("dave")
        let accepted = try w.sharing.acceptShare(url: w.share.url, in: dave)
        #expect(accepted.participant(dave.userRecordName)?.permission == .readOnly)
        #expect(cloudError { try w.f.save([w.trip("x", dave, city: "X")], dave) }?.code == .permissionFailure)
        #expect(try w.sharing.acceptedShares(zoneName: nil, in: dave).map(\.zoneID.zoneName) == ["Trips"])
    }

    /// Issue 25, item 10: inviting a name no account has is UNKNOWN_ITEM (exit 3), naming it, and
    /// creates nothing: no account, no participant, not even the others of the same call.
    @Test(arguments: CloudBackend.allCases)
    func invitingAnAccountThatDoesNotExistIsRefused(_ backend: CloudBackend) throws {
        let w = try World(backend)
        _ = try w.shared("bob")
        let error = cloudError { _ = try w.sharing.addParticipants(["bob", "bobb"], permission: .readOnly, zoneName: "Trips", in: w.alice) }
        #expect(error?.code == .unknownItem, "\(String(describing: error))")
        #expect(error?.reason.contains("no account named 'bobb'") == true, "\(String(describing: error))")
        #expect(try w.sharing.ownedShares(zoneName: "Trips", in: w.alice).first?.participants.isEmpty == true)
        // bobb was not made by the attempt: inviting bobb alone is refused again.
        #expect(cloudError { _ = try w.sharing.addParticipants(["bobb"], permission: .readOnly, zoneName: "Trips", in: w.alice) }?
            .code == .unknownItem)
        let share = try w.sharing.addParticipants(["bob"], permission: .readOnly, zoneName: "Trips", in: w.alice)
        #expect(share.participants.count == 1)
    }

    @Test(arguments: CloudBackend.allCases)
    func sharedDatabaseChangesListZonesThenUnsharedOnRemoval(_ backend: CloudBackend) throws {
        let w = try World(backend)
        let bob = try w.shared("bob")
        _ = try w.sharing.addParticipants(["bob"], permission: .readWrite, zoneName: "Trips", in: w.alice)
        _ = try w.sharing.acceptShare(url: w.share.url, in: bob)
        let zoneID = ZoneID(zoneName: "Trips", ownerRecordName: w.alice.userRecordName)
        let first = try w.f.cloud.fetchDatabaseChanges(since: nil, limit: 100, in: bob)
        #expect(first.changedZones == [zoneID] && first.deletedZones.isEmpty)
        let initial = try w.f.allChanges("Trips", since: nil, bob)
        #expect(initial.changed.contains { $0.recordID.recordName == "rome" })
        #expect(try w.f.cloud.fetchDatabaseChanges(since: first.token, limit: 100, in: bob).changedZones.isEmpty)
        // The owner's change shows in Bob's shared database, and with his zone token.
        try w.f.save([w.trip("paris", w.alice, city: "Paris")], w.alice)
        let second = try w.f.cloud.fetchDatabaseChanges(since: first.token, limit: 100, in: bob)
        #expect(second.changedZones == [zoneID])
        #expect(try w.f.allChanges("Trips", since: initial.token, bob).changed.map(\.recordID.recordName) == ["paris"])
        // Removed: the zone is reported unshared, and is gone.
        _ = try w.sharing.removeParticipants(["bob"], zoneName: "Trips", in: w.alice)
        let third = try w.f.cloud.fetchDatabaseChanges(since: second.token, limit: 100, in: bob)
        #expect(third.deletedZones.map(\.zoneID) == [zoneID] && third.deletedZones.first?.reason == .unshared)
        #expect(try w.f.cloud.fetchAllZones(in: bob).isEmpty)
        #expect(cloudError { _ = try w.f.cloud.fetchZoneChanges("Trips", since: nil, limit: 10, in: bob) }?.code == .zoneNotFound)
        #expect(cloudError { _ = try w.sharing.acceptShare(url: w.share.url, in: bob) }?.code == .permissionFailure)
    }

    @Test(arguments: CloudBackend.allCases)
    func leavingAffectsOneParticipantAndDeletingRevokesTheURL(_ backend: CloudBackend) throws {
        let w = try World(backend)
        let bob = try w.shared("bob")
        let carol = try w.shared("carol")
        _ = try w.sharing.addParticipants(["bob", "carol"], permission: .readOnly, zoneName: "Trips", in: w.alice)
        _ = try w.sharing.acceptShare(url: w.share.url, in: bob)
        _ = try w.sharing.acceptShare(url: w.share.url, in: carol)
        let carolToken = try w.f.cloud.fetchDatabaseChanges(since: nil, limit: 100, in: carol).token
        try w.sharing.leaveShare(zoneName: "Trips", in: bob)
        #expect(try w.f.cloud.fetchAllZones(in: bob).isEmpty)
        #expect(try w.f.cloud.fetchAllZones(in: carol).count == 1)
        #expect(try w.sharing.ownedShares(zoneName: "Trips", in: w.alice).first?.participants.map(\.userRecordName) == [carol.userRecordName])
        try w.sharing.deleteShare(zoneName: "Trips", in: w.alice)
        let changes = try w.f.cloud.fetchDatabaseChanges(since: carolToken, limit: 100, in: carol)
        #expect(changes.deletedZones.map(\.reason) == [.unshared])
        #expect(cloudError { _ = try w.sharing.acceptShare(url: w.share.url, in: carol) }?.code == .permissionFailure)
        #expect(try w.sharing.ownedShares(zoneName: nil, in: w.alice).isEmpty)
        // A new share has a new URL; the zone's records stayed Alice's.
        let again = try w.sharing.saveShare(zoneName: "Trips", title: nil, publicPermission: nil, in: w.alice)
        #expect(again.url != w.share.url)
        #expect(try w.f.allChanges("Trips", since: nil, w.alice).changed.contains { $0.recordID.recordName == "rome" })
    }

    @Test(arguments: CloudBackend.allCases)
    func deletingTheZoneUnsharesIt(_ backend: CloudBackend) throws {
        let w = try World(backend)
        let bob = try w.shared("bob")
        _ = try w.sharing.addParticipants(["bob"], permission: .readOnly, zoneName: "Trips", in: w.alice)
        _ = try w.sharing.acceptShare(url: w.share.url, in: bob)
        let token = try w.f.cloud.fetchDatabaseChanges(since: nil, limit: 100, in: bob).token
        try w.f.cloud.deleteZones(["Trips"], purge: false, in: w.alice)
        #expect(try w.f.cloud.fetchDatabaseChanges(since: token, limit: 100, in: bob).deletedZones.map(\.reason) == [.unshared])
        _ = try w.f.cloud.saveZones([ZoneSpec(name: "Trips")], in: w.alice)
        #expect(try w.sharing.ownedShares(zoneName: nil, in: w.alice).isEmpty)
        #expect(try w.f.cloud.fetchAllZones(in: bob).isEmpty)
    }

    @Test(arguments: CloudBackend.allCases)
    func subscriptionsInTheSharedDatabaseNotifyParticipants(_ backend: CloudBackend) throws {
        let w = try World(backend)
        let bob = try w.shared("bob")
        let carol = try w.shared("carol")
        _ = try w.sharing.addParticipants(["bob", "carol"], permission: .readWrite, zoneName: "Trips", in: w.alice)
        _ = try w.sharing.acceptShare(url: w.share.url, in: bob)
        _ = try w.sharing.acceptShare(url: w.share.url, in: carol)
        var bobBase = bob
        bobBase.sharedOwner = nil
        _ = try w.f.cloud.saveSubscriptions([Subscription(subscriptionID: "shared-db", kind: .database)], in: bobBase)
        _ = try w.f.cloud.saveSubscriptions([Subscription(subscriptionID: "mine", kind: .database)], in: w.alice)
        // The owner's change notifies Bob, in his shared database.
        try w.f.save([w.trip("paris", w.alice, city: "Paris")], w.alice)
        let toBob = try w.f.cloud.takeNotifications(for: DeviceAddress(bob), limit: 10)
        #expect(toBob.map(\.databaseScope) == [.shared] && toBob.first?.subscriptionID == "shared-db")
        // Another participant's change notifies Bob and the owner (in her private database).
        try w.f.save([w.trip("lima", carol, city: "Lima")], carol)
        #expect(try w.f.cloud.takeNotifications(for: DeviceAddress(bob), limit: 10).count == 1)
        #expect(try w.f.cloud.takeNotifications(for: DeviceAddress(w.alice), limit: 10).map(\.databaseScope) == [.private])
        // Bob's own change does not notify the device that made it.
        try w.f.save([w.trip("kyiv", bob, city: "Kyiv")], bob)
        #expect(try w.f.cloud.takeNotifications(for: DeviceAddress(bob), limit: 10).isEmpty)
    }
}
