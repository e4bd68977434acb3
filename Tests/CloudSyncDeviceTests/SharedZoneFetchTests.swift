import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// The device side of the shared database (issue 18): zones of other owners in the cache.
@Suite("Change fetcher in the shared database")
struct SharedZoneFetchTests {
    /// An unshared zone is dropped from the cache, and does not make the device forget its own
    /// private zone of the same name.
    @Test func anUnsharedZoneIsDroppedWithoutForgettingTheOwnZoneOfTheSameName() throws {
        let w = try DeviceWorld()
        let (alice, _, bobShared) = try w.aliceSharesTripsWithBob(.readOnly)
        let store = try w.store("phone")
        try store.setSyncState(container: w.container, DeviceStore.zonesCreatedKey, "Trips")
        let fetcher = ChangeFetcher(cloud: w.cloud, store: store, request: bobShared)
        let first = try fetcher.fetch()
        #expect(first.changedRecords == 3, "rome, oslo and the share record")
        _ = try w.cloud.removeParticipants(["bob"], zoneName: "Trips", in: alice)
        var dropped: [(ZoneDeletionReason, Int)] = []
        _ = try fetcher.fetch { event in
            if case .zoneDeleted(_, let reason, let count) = event { dropped.append((reason, count)) }
        }
        #expect(dropped.map(\.0) == [.unshared] && dropped.map(\.1) == [3])
        #expect(try store.syncState(container: w.container, DeviceStore.zonesCreatedKey) == "Trips")
    }
}
