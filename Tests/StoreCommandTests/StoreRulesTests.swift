import CloudSyncCore
import Dispatch
import Synchronization
import TestSupport
import Testing

/// `store put` refuses what could never sync, and `store query` bounds predicates (issue 17,
/// items 2, 5, 6 and 11), through the built binary.
@Suite("cloudsync store: the cloud's rules at put time (end to end)")
struct StoreRulesTests {
    let home = TemporaryDirectory("store-rules")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func expectNothingStored(_ name: String) throws {
        #expect(cli.run(["store", "get", name]).status == 3)
        let status = try cli.run(["store", "status", "--json"]).json()
        #expect(status["records"] == .int(0))
        #expect(status["pending"] == .int(0))
    }

    /// One argument holds at most 128 KB on Linux: nine 120 KB fields make a 1.08 MB record.
    @Test func aRecordOverTheCloudLimitIsRefusedAtPutTime() throws {
        let fields = (0..<9).flatMap { ["--field", "f\($0)=" + String(repeating: "x", count: 120_000)] }
        let result = cli.run(["store", "put", "Note", "big"] + fields)
        #expect(result.status == 65)
        #expect(result.stderr.contains("record 'big' is 1080"))
        #expect(result.stderr.contains("the limit is 1048576 (1 MB)"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        try expectNothingStored("big")
        // Just under the limit is fine, and it syncs.
        #expect(cli.run(["store", "sync", "on"]).status == 0)
        let fits = (0..<8).flatMap { ["--field", "f\($0)=" + String(repeating: "x", count: 120_000)] }
        #expect(cli.run(["store", "put", "Note", "fits"] + fits).status == 0)
        let sync = cli.run(["store", "sync"])
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try cli.run(["store", "status", "--json"]).json()["pending"] == .int(0))
    }

    @Test(arguments: ["CD_editedAt:TIMESTAMP=5", "CD_editedAt=5", "recordName=x", "creationDate:INT64=1"])
    func reservedFieldNamesAreRefused(field: String) throws {
        let result = cli.run(["store", "put", "Note", "n1", "--field", field])
        #expect(result.status == 65)
        #expect(result.stderr.contains("is reserved"))
        try expectNothingStored("n1")
    }

    /// 20,000 `!` overflowed the stack (SIGSEGV).
    @Test func deeplyNestedPredicatesAreAOneLineError() {
        #expect(cli.run(["store", "put", "Note", "n1", "--field", "a:INT64=1"]).status == 0)
        for text in [String(repeating: "!", count: 20_000) + "a == 1",
                     String(repeating: "(", count: 5000) + "a == 1" + String(repeating: ")", count: 5000)] {
            let result = cli.run(["store", "query", "Note", "--where", text])
            #expect(result.status == 65)
            #expect(result.stderr.contains("nested more than 100 levels deep"))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
        let atBound = cli.run(["store", "query", "Note", "--where", String(repeating: "!", count: 100) + "a == 1", "--json"])
        #expect(atBound.status == 0)
        #expect(atBound.stdout.contains("\"n1\""))
    }

    /// 16 devices sync at once, each adding new fields to its own record and to one shared
    /// record: a conflict's merge carries fields other processes just added to the schema,
    /// which this process's schema cache has not seen. Before the fix about one run in five
    /// exited 70 (UNIQUE constraint failed: schema_fields).
    @Test func concurrentSyncsThatAddFieldsAllSucceed() throws {
        let devices = (1...16).map { "d\($0)" }
        #expect(cli.run(["store", "sync", "on"]).status == 0)
        #expect(cli.run(["store", "put", "Note", "shared", "--field", "base=1"], device: "d0").status == 0)
        #expect(cli.run(["store", "sync"], device: "d0").status == 0)
        for device in devices { #expect(cli.run(["store", "sync"], device: device).status == 0) }
        let runner = cli
        for round in 1...3 {
            for (i, device) in devices.enumerated() {
                #expect(cli.run(["store", "put", "Note", "shared", "--field", "s\(round)_\(i)=1"], device: device).status == 0)
                #expect(cli.run(["store", "put", "Note", "own\(i)", "--field", "o\(round)_\(i)=1"], device: device).status == 0)
            }
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: devices.count) { i in
                let result = runner.run(["store", "sync"], device: devices[i])
                if result.status != 0 {
                    failures.withLock { $0.append("round \(round) \(devices[i]): \(result.status) \(result.stderr)") }
                }
            }
            let failed = failures.withLock { $0 }
            #expect(failed.isEmpty, "\(failed)")
        }
        #expect(cli.run(["store", "sync"], device: "d0").status == 0)
        let shared = try cli.run(["store", "get", "shared", "--json"], device: "d0").firstRecord()
        #expect(shared["fields"]?.objectValue?.count == 1 + 3 * devices.count, "every device's field was merged")
    }
}
