import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// The sync use case (`AccountSync`), in-process over a real SQLite cloud: private zones always,
/// accepted shared zones only when the device's setting is on, each owner's in its own device
/// file, and an unshared zone dropped with an event for the caller to word.
@Suite("Account sync: private and shared zones as one use case")
struct AccountSyncTests {
    final class Opened: @unchecked Sendable {
        var owners: [String] = []
        var stores: [String: DeviceStore] = [:]
    }

    static func accountSync(_ w: DeviceWorld, _ store: DeviceStore, _ request: DatabaseRequest, _ opened: Opened) -> AccountSync {
        AccountSync(cloud: w.cloud, store: store, container: w.container,
                    request: { scope in var scoped = request; scoped.scope = scope; return scoped }, sharing: w.cloud,
                    sharedStore: { owner in
                        opened.owners.append(owner)
                        if let store = opened.stores[owner] { return store }
                        let store = try w.store("phone-shared-" + owner)
                        opened.stores[owner] = store
                        return store
                    },
                    makeAdapter: { GenericStoreAdapter(forceData: $0) })
    }

    @Test func sharedZonesSyncOnlyWhenOnAndAnUnsharedZoneIsDroppedWithAnEvent() throws {
        let w = try DeviceWorld()
        let (alice, bob, _) = try w.aliceSharesTripsWithBob(.readWrite)
        let store = try w.store("phone")
        let opened = Opened()
        let sync = Self.accountSync(w, store, bob, opened)
        var events: [AccountSync.Event] = []

        // Off (the default): only the private zones; no owner's file is opened.
        _ = try sync.sync(adapter: GenericStoreAdapter(), options: SyncOptions(), forceData: false,
                          events: { events.append($0) })
        #expect(opened.owners.isEmpty)

        try store.setSyncState(container: w.container, AccountSync.sharedZonesKey, "on")
        let first = try sync.sync(adapter: GenericStoreAdapter(), options: SyncOptions(), forceData: false,
                          events: { events.append($0) })
        #expect(opened.owners == ["alice"])
        #expect(first.pulledChanges >= 2, "rome and oslo pulled into alice's file")
        let aliceFile = try #require(opened.stores["alice"])
        #expect(try aliceFile.heldZoneNames(container: w.container) == ["Trips"])
        #expect(events.isEmpty)

        _ = try w.cloud.removeParticipants(["bob"], zoneName: "Trips", in: alice)
        _ = try sync.sync(adapter: GenericStoreAdapter(), options: SyncOptions(), forceData: false,
                          events: { events.append($0) })
        #expect(events.count == 1)
        if case .unsharedZoneDropped(let zone, let owner, let records, let unpushed)? = events.first {
            #expect(zone == "Trips" && owner == "alice" && unpushed == 0)
            #expect(records >= 2)
        } else {
            Issue.record("expected the zone dropped as unshared, got \(events)")
        }
        #expect(try aliceFile.heldZoneNames(container: w.container).isEmpty)
    }
}
