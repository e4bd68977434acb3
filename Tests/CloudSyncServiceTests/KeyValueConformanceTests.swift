import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

@Suite("Key-value store (conformance)")
struct KeyValueConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func writesChangesAndTokens(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let a = try f.request("alice", device: "a"), b = try f.request("alice", device: "b")
        let start = try f.cloud.fetchKeyValueChanges(since: nil, in: a)
        #expect(start.items.isEmpty)
        _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "x", value: .number(1)), KeyValueWrite(key: "y", value: .string("s"))], in: a)
        let delta = try f.cloud.fetchKeyValueChanges(since: start.token, in: b)
        #expect(delta.items.map(\.key) == ["x", "y"])
        #expect(delta.items.first?.deviceID == "a")
        _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "x", value: nil)], in: b)
        let next = try f.cloud.fetchKeyValueChanges(since: delta.token, in: a)
        #expect(next.items.count == 1 && next.items[0].value == nil)
        #expect(try f.cloud.fetchKeyValueChanges(since: next.token, in: a).items.isEmpty)
        // Stores are per account, and tokens cannot cross stores or kinds.
        #expect(try f.cloud.fetchKeyValueChanges(since: nil, in: try f.request("bob")).items.isEmpty)
        #expect(cloudError { _ = try f.cloud.fetchKeyValueChanges(since: next.token, in: try f.request("bob")) }?.code == .changeTokenExpired)
        let dbToken = try f.cloud.fetchDatabaseChanges(since: nil, limit: 10, in: a).token
        #expect(cloudError { _ = try f.cloud.fetchKeyValueChanges(since: dbToken, in: a) }?.code == .changeTokenExpired)
        #expect(cloudError { _ = try f.cloud.fetchDatabaseChanges(since: next.token, limit: 10, in: a) }?.code == .changeTokenExpired)
    }

    @Test(arguments: CloudBackend.allCases)
    func quotaViolationsChangeNothing(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let r = try f.request("alice")
        #expect(cloudError { _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: String(repeating: "k", count: 65), value: .bool(true))], in: r) }?.code == .quotaExceeded)
        #expect(cloudError { _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "big", value: .data([UInt8](repeating: 0, count: 1_048_577)))], in: r) }?.code == .quotaExceeded)
        _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "h1", value: .data([UInt8](repeating: 1, count: 600_000)))], in: r)
        let total = cloudError { _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "h2", value: .data([UInt8](repeating: 2, count: 600_000))),
                                                                  KeyValueWrite(key: "small", value: .bool(true))], in: r) }
        #expect(total?.code == .quotaExceeded)
        #expect(total?.reason.contains("QuotaViolation") == true)
        #expect(try f.cloud.fetchKeyValueChanges(since: nil, in: r).items.map(\.key) == ["h1"], "the failed batch changed nothing")
        _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "h1", value: nil)], in: r)
        _ = try f.cloud.modifyKeyValues((0..<1024).map { KeyValueWrite(key: "k\($0)", value: .number(Double($0))) }, in: r)
        #expect(cloudError { _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "k1024", value: .bool(true))], in: r) }?.code == .quotaExceeded)
        _ = try f.cloud.modifyKeyValues([KeyValueWrite(key: "k0", value: .bool(false))], in: r)
    }
}
