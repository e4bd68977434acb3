import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import TestSupport
import Testing

/// A pulled page is one history transaction whose changes are written several rows per
/// statement (issue 16): every change is there, in the page's order.
@Suite("Pulled history")
struct PulledHistoryTests {
    @Test func aPulledPageIsOneTransactionWithEveryChangeInOrder() throws {
        let w = try SyncWorld()
        let names = (0..<75).map { "r\($0)" }
        for name in names { try w.put("a", name, ["v": .string(name), "n": .int64(1)]) }
        try w.sync("a")
        #expect(try w.sync("b").pulledChanges == 75)
        let pulled = try w.store("b").history(container: w.container).filter { $0.author == LocalStoreDefaults.syncAuthor }
        #expect(pulled.count == 1)
        #expect(pulled.first?.changes.map(\.recordName) == names)
        #expect(pulled.first?.changes.allSatisfy { $0.kind == .insert && $0.changedKeys == ["n", "v"] } == true)
    }
}
