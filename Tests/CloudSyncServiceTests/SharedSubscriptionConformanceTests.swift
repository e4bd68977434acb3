import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// Zone subscriptions in the shared database (issue 18 follow-up) on every backend: a zone is
/// one owner's zone, so two owners' zones of the same name never share a subscription.
@Suite("Sharing: zone subscriptions of two owners (conformance)")
struct SharedSubscriptionConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func aZoneSubscriptionWatchesOneOwnersZone(_ backend: CloudBackend) throws {
        let w = try SharingConformanceTests.World(backend)
        let f = w.f
        // Dave has a zone Trips too, and shares it with Bob as Alice does.
        let dave = try f.request("dave")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Trips")], in: dave)
        let davesShare = try w.sharing.saveShare(zoneName: "Trips", title: nil, publicPermission: nil, in: dave)
        _ = try f.request("bob")  // an invitation names an account that exists (issue 25)
        _ = try w.sharing.addParticipants(["bob"], permission: .readOnly, zoneName: "Trips", in: w.alice)
        _ = try w.sharing.addParticipants(["bob"], permission: .readOnly, zoneName: "Trips", in: dave)
        let bobOfAlice = try w.shared("bob")
        let bob = try f.request("bob", .shared)
        _ = try w.sharing.acceptShare(url: w.share.url, in: bobOfAlice)
        _ = try w.sharing.acceptShare(url: davesShare.url, in: bob)

        // Which Trips? Bob must say.
        let zone = Subscription(subscriptionID: "alice-trips", kind: .recordZone(zoneName: "Trips"))
        #expect(cloudError { _ = try f.cloud.saveSubscriptions([zone], in: bob) }?.code == .invalidArguments)
        let saved = try f.cloud.saveSubscriptions([zone], in: bobOfAlice)
        #expect(saved.first?.zoneOwner == w.alice.userRecordName)
        #expect(try f.cloud.fetchAllSubscriptions(in: bob).first?.zoneOwner == w.alice.userRecordName)

        // Dave's change of his Trips does not fire it; Alice's does, naming her zone.
        try f.save([f.record("bergen", zone: "Trips", dave, type: "Trip", fields: ["city": .string("Bergen")])], dave)
        #expect(try f.cloud.takeNotifications(for: DeviceAddress(bob), limit: 10).isEmpty)
        try f.save([w.trip("paris", w.alice, city: "Paris")], w.alice)
        let toBob = try f.cloud.takeNotifications(for: DeviceAddress(bob), limit: 10)
        #expect(toBob.map(\.subscriptionID) == ["alice-trips"])
        #expect(toBob.first?.zoneID == ZoneID(zoneName: "Trips", ownerRecordName: w.alice.userRecordName))
        // Dave deleting his Trips ends his share, not Bob's subscription of Alice's Trips.
        try f.cloud.deleteZones(["Trips"], purge: false, in: dave)
        #expect(try f.cloud.takeNotifications(for: DeviceAddress(bob), limit: 10).isEmpty)
        #expect(try f.cloud.fetchAllSubscriptions(in: bob).map(\.subscriptionID) == ["alice-trips"])
        try f.save([w.trip("lima", w.alice, city: "Lima")], w.alice)
        #expect(try f.cloud.takeNotifications(for: DeviceAddress(bob), limit: 10).count == 1)
        // With one owner left sharing a Trips, the owner may go unnamed.
        let other = Subscription(subscriptionID: "trips", kind: .recordZone(zoneName: "Trips"))
        #expect(try f.cloud.saveSubscriptions([other], in: bob).first?.zoneOwner == w.alice.userRecordName)
    }
}
