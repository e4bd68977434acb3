import CloudSyncCore
import Dispatch
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("cloudsync fetch-changes (end to end, two devices)")
struct FetchChangesCommandTests {
    let home = TemporaryDirectory("fetch-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func events(_ result: ProcessResult) throws -> [JSONValue] { try result.ndjson() }

    @Test func secondDeviceFetchesOnlyWhatChanged() throws {
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        for i in 1...3 {
            #expect(cli.run(["record", "save", "Note", "n\(i)", "--zone", "Notes", "--field", "i:INT64=\(i)"], device: "laptop").status == 0)
        }
        let first = try events(cli.run(["fetch-changes", "--json"], device: "phone"))
        #expect(first.filter { $0["event"]?.stringValue == "changed" }.count == 3)
        #expect(first.last?["event"]?.stringValue == "summary")
        #expect(first.last?["changed"] == .int(3))
        let again = cli.run(["fetch-changes"], device: "phone")
        #expect(again.status == 0)
        #expect(again.stdout.contains("Already up to date."))
        let againJSON = try events(cli.run(["fetch-changes", "--json"], device: "phone"))
        #expect(againJSON.count == 1 && againJSON[0]["upToDate"] == .bool(true))

        #expect(cli.run(["record", "save", "Note", "n2", "--zone", "Notes", "--field", "i:INT64=20", "--policy", "changed-keys"], device: "laptop").status == 0)
        #expect(cli.run(["record", "delete", "n3", "--zone", "Notes"], device: "laptop").status == 0)
        let delta = try events(cli.run(["fetch-changes", "--json"], device: "phone"))
        let changed = delta.filter { $0["event"]?.stringValue == "changed" }
        let deleted = delta.filter { $0["event"]?.stringValue == "deleted" }
        #expect(changed.map { $0["record"]?["recordName"]?.stringValue } == ["n2"])
        #expect(changed.first?["record"]?["fields"]?["i"]?["value"] == .int(20))
        #expect(deleted.map { $0["record"]?["recordName"]?.stringValue } == ["n3"])
        #expect(deleted.first?["record"]?["deleted"] == .bool(true))
        // The laptop, which made the changes, still fetches them once into its own cache.
        let laptop = try events(cli.run(["fetch-changes", "--json"], device: "laptop"))
        #expect(laptop.last?["changed"] == .int(2))
    }

    @Test func zoneDeletionAndReset() throws {
        #expect(cli.run(["zone", "create", "Tmp"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "a", "--zone", "Tmp"], device: "laptop").status == 0)
        #expect(cli.run(["fetch-changes"], device: "phone").status == 0)
        #expect(cli.run(["zone", "delete", "Tmp", "--yes"], device: "laptop").status == 0)
        let gone = try events(cli.run(["fetch-changes", "--json"], device: "phone"))
        #expect(gone.contains { $0["event"]?.stringValue == "zoneDeleted" && $0["droppedRecords"] == .int(1) })
        #expect(cli.run(["zone", "create", "Tmp"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "b", "--zone", "Tmp"], device: "laptop").status == 0)
        let reset = try events(cli.run(["fetch-changes", "--reset", "--json"], device: "phone"))
        #expect(reset.filter { $0["event"]?.stringValue == "changed" }.compactMap { $0["record"]?["recordName"]?.stringValue } == ["b"])
    }

    @Test func pagingAndSingleZone() throws {
        #expect(cli.run(["zone", "create", "A", "B"], device: "laptop").status == 0)
        let names = (0..<25).map { "r\($0)" }
        for name in names {
            #expect(cli.run(["record", "save", "Note", name, "--zone", "A"], device: "laptop").status == 0)
        }
        #expect(cli.run(["record", "save", "Note", "b1", "--zone", "B"], device: "laptop").status == 0)
        let onlyA = try events(cli.run(["fetch-changes", "--zone", "A", "--limit", "10", "--json"], device: "phone"))
        #expect(onlyA.last?["changed"] == .int(25))
        let rest = try events(cli.run(["fetch-changes", "--json"], device: "phone"))
        #expect(rest.last?["changed"] == .int(1))
        #expect(cli.run(["fetch-changes", "--limit", "0"], device: "phone").status == 64)
        #expect(cli.run(["fetch-changes", "--database", "public"], device: "phone").status == 64)
        #expect(cli.run(["fetch-changes", "--zone", "_defaultZone"], device: "phone").status == 65)
        #expect(cli.run(["fetch-changes", "--zone", "Missing"], device: "phone").status == 3, "a zone that never existed is not found")
    }

    @Test func concurrentWriterProcessesLoseNothing() throws {
        #expect(cli.run(["zone", "create", "Busy"], device: "d0").status == 0)
        let runner = cli
        let statuses = ConcurrentResults(count: 4)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            var failures = 0
            for i in 0..<15 {
                let r = runner.run(["record", "save", "Note", "w\(worker)-\(i)", "--zone", "Busy", "--field", "i:INT64=\(i)"],
                                   device: "d\(worker)")
                if r.status != 0 { failures += 1 }
            }
            statuses.set(worker, failures)
        }
        #expect(statuses.values == [0, 0, 0, 0])
        let fetched = try events(cli.run(["fetch-changes", "--json"], device: "reader"))
        let names = Set(fetched.filter { $0["event"]?.stringValue == "changed" }.compactMap { $0["record"]?["recordName"]?.stringValue })
        #expect(names.count == 60)
    }

    @Test func corruptDeviceFileIsAOneLineError() throws {
        #expect(cli.run(["zone", "create", "Z"]).status == 0)
        home.makeDirectory("devices/alice")
        home.write("devices/alice/phone.sqlite", String(repeating: "garbage!", count: 1000))
        let result = cli.run(["fetch-changes"], device: "phone")
        #expect(result.status == 69)
        #expect(result.stderr.contains("device"))
    }
}

/// Results written by concurrent workers.
final class ConcurrentResults: @unchecked Sendable {
    private var storage: [Int]
    private var lock = pthread_mutex_t()
    init(count: Int) { storage = Array(repeating: -1, count: count); pthread_mutex_init(&lock, nil) }
    func set(_ index: Int, _ value: Int) { pthread_mutex_lock(&lock); storage[index] = value; pthread_mutex_unlock(&lock) }
    var values: [Int] { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return storage }
}
