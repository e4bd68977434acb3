import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

@Suite("Key-value sync")
struct KeyValueSyncTests {
    @Test func threeDevicesConvergeAndReasonsAreRight() throws {
        let w = try DeviceWorld()
        let devices = ["a", "b", "c"]
        let stores = try devices.map { try w.store($0) }
        let syncs = try devices.indices.map { KeyValueSync(cloud: w.cloud, store: stores[$0], request: try w.request(device: devices[$0])) }
        try stores[0].setKeyValue(container: w.container, "shared", .string("from a"), now: 1)
        let first = try syncs[0].sync()
        #expect(first.isEmpty)
        let initial = try syncs[1].sync()
        #expect(initial.first?.reason == .initialSyncChange)
        _ = try syncs[2].sync()
        // Same key on two devices, different keys on all: the last push wins the shared key.
        try stores[1].setKeyValue(container: w.container, "shared", .string("from b"), now: 2)
        try stores[2].setKeyValue(container: w.container, "shared", .string("from c"), now: 3)
        for (i, store) in stores.enumerated() { try store.setKeyValue(container: w.container, "own\(i)", .number(Double(i)), now: 4) }
        _ = try syncs[1].sync(); _ = try syncs[2].sync()
        let toA = try syncs[0].sync()
        #expect(toA.first?.reason == .serverChange)
        #expect(Set(toA.first?.items.map(\.key) ?? []) == ["shared", "own1", "own2"])
        for s in syncs { _ = try s.sync() }
        let contents = try stores.map { try $0.keyValues(container: w.container).map { "\($0.key)=\($0.value?.storedText ?? "")" } }
        #expect(contents[0] == contents[1] && contents[1] == contents[2])
        #expect(contents[0].contains("shared=from c"))
        #expect(try stores.allSatisfy { try $0.pendingKeyValues(container: w.container).isEmpty })
    }

    @Test func localLimitsRefuseBeforeAnyCloudCall() throws {
        let w = try DeviceWorld()
        let store = try w.store("a")
        #expect(throws: CloudError.self) { try store.setKeyValue(container: w.container, String(repeating: "x", count: 65), .bool(true), now: 1) }
        try store.setKeyValue(container: w.container, "h1", .data([UInt8](repeating: 0, count: 700_000)), now: 1)
        #expect(throws: CloudError.self) { try store.setKeyValue(container: w.container, "h2", .data([UInt8](repeating: 0, count: 700_000)), now: 1) }
        #expect(try store.keyValue(container: w.container, "h2") == nil)
    }

    @Test func anotherAccountOrCloudIsAnAccountChange() throws {
        let w = try DeviceWorld()
        let store = try w.store("a")
        let alice = KeyValueSync(cloud: w.cloud, store: store, request: try w.request("alice", device: "a"))
        try store.setKeyValue(container: w.container, "mine", .bool(true), now: 1)
        _ = try alice.sync()
        let other = try SQLiteCloud(path: w.dir.file("other.sqlite"))
        let request = DatabaseRequest(container: w.container, scope: .private,
                                      userRecordName: try other.account(named: "alice").userRecordName, deviceID: "a")
        _ = try other.modifyKeyValues([KeyValueWrite(key: "theirs", value: .bool(true))], in: request)
        let changes = try KeyValueSync(cloud: other, store: store, request: request).sync()
        #expect(changes.map(\.reason) == [.accountChange])
        #expect(try store.keyValues(container: w.container).map(\.key) == ["theirs"])
    }
}
