import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Many processes writing one PostgreSQL cloud at once (issue 11): sequencing under row locks.
@Suite("cloudsync on PostgreSQL: concurrent processes")
struct PostgresConcurrencyTests {
    /// 8 processes × 100 saves (each its own modify call, one script line each) into one zone
    /// while a reader runs `fetch-changes` every 200 ms: the reader's cumulative set is exactly
    /// the 800 records, each once. A reader that saw N+1 before N would skip N for good.
    @Test func eightWritersAndAPollingReaderSeeEveryRecordExactlyOnce() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        #expect(cli.run(["zone", "create", "Load"], device: "setup").status == 0)
        var writers: [BackgroundCommand] = []
        for writer in 1...8 {
            let script = (1...100).map { "record save Note w\(writer)_\($0) --zone Load\n" }.joined()
            let path = cloud.home.write("writer\(writer).script", script)
            writers.append(BackgroundCommand(cli, ["repl"], device: "writer\(writer)",
                                             stdout: cloud.home.file("writer\(writer).out"), stdin: path))
        }
        var seen: [String] = []
        func fetch() {
            let result = cli.run(["fetch-changes", "--json", "--zone", "Load"], device: "reader")
            #expect(result.status == 0, "\(result.stderr)")
            for event in (try? result.ndjson()) ?? [] where event["event"] == .string("changed") {
                if let name = event["record"]?["recordName"]?.stringValue { seen.append(name) }
            }
        }
        var running = writers.map { _ in true }
        var statuses: [Int32?] = writers.map { _ in nil }
        let deadline = monotonicNow() + 300
        while running.contains(true), monotonicNow() < deadline {
            fetch()
            sleepSeconds(0.2)
            for (index, writer) in writers.enumerated() where running[index] {
                var status: Int32 = 0
                if waitpid(writer.pid, &status, WNOHANG) == writer.pid {
                    running[index] = false
                    statuses[index] = (status >> 8) & 0xFF
                }
            }
        }
        for (index, writer) in writers.enumerated() where running[index] { statuses[index] = writer.wait(seconds: 1) }
        fetch()
        #expect(statuses.allSatisfy { $0 == 0 }, "writers: \(statuses) \(writers.map(\.errors))")
        let expected = Set((1...8).flatMap { writer in (1...100).map { "w\(writer)_\($0)" } })
        #expect(seen.count == 800, "no duplicate: \(seen.count) changes seen")
        #expect(Set(seen) == expected, "no gap: missing \(expected.subtracting(seen).sorted().prefix(10))")
    }

    /// `store sync` from 8 devices at once: every device ends with every device's records.
    @Test func storeSyncFromEightDevicesConverges() throws {
        let cloud = try PostgresTestCloud()
        let cli = cloud.cli
        #expect(cli.run(["store", "sync", "on"], device: "setup").status == 0)
        for device in 1...8 {
            for i in 1...10 {
                #expect(cli.run(["store", "put", "Note", "d\(device)_\(i)", "--field", "n:INT64=\(i)"], device: "d\(device)").status == 0)
            }
            // Every device also edits one shared record: conflicts are resolved and logged.
            #expect(cli.run(["store", "put", "Note", "shared", "--field", "by=d\(device)"], device: "d\(device)").status == 0)
        }
        let syncs = (1...8).map { device in
            BackgroundCommand(cli, ["store", "sync"], device: "d\(device)", stdout: cloud.home.file("sync\(device).out"))
        }
        let statuses = syncs.map { $0.wait(seconds: 120) }
        #expect(statuses.allSatisfy { $0 == 0 }, "syncs: \(statuses) \(syncs.map(\.errors))")
        // A second round brings everyone what the others pushed after their first pull.
        for device in 1...8 {
            let again = cli.run(["store", "sync"], device: "d\(device)")
            #expect(again.status == 0, "\(again.stderr)")
        }
        let expected = Set((1...8).flatMap { device in (1...10).map { "d\(device)_\($0)" } } + ["shared"])
        var shared: Set<String> = []
        for device in 1...8 {
            let json = try cli.run(["store", "query", "Note", "--json"], device: "d\(device)").json()
            let records = json["records"]?.arrayValue ?? []
            #expect(Set(records.compactMap { $0["recordName"]?.stringValue }) == expected, "device d\(device)")
            for record in records where record["recordName"] == .string("shared") {
                shared.insert(record["fields"]?["by"]?["value"]?.stringValue ?? "")
            }
        }
        #expect(shared.count == 1, "every device holds the same winner of the shared record: \(shared)")
    }
}
