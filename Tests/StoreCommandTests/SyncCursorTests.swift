import CloudSyncCore
import TestSupport
import Testing

/// `fetch-changes` and `store sync` on one device keep separate cursors (issue 17, item 1): a
/// raw fetch must never hide from the local store what the store has not applied yet.
@Suite("fetch-changes and store sync on one device (end to end)")
struct SyncCursorTests {
    let home = TemporaryDirectory("cursor-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func fields(_ device: String, _ name: String) throws -> JSONValue? {
        try cli.run(["store", "get", name, "--json"], device: device).firstRecord()["fields"]
    }

    /// The local store of a device as (record name -> fields), with the pending count.
    func snapshot(_ device: String) throws -> (records: [String: JSONValue], pending: Int64?) {
        let query = cli.run(["store", "query", "Item", "--json"], device: device)
        #expect(query.status == 0, "\(device): \(query.stderr)")
        var records: [String: JSONValue] = [:]
        for record in try query.json()["records"]?.arrayValue ?? [] {
            if let name = record["recordName"]?.stringValue { records[name] = record["fields"] }
        }
        let status = try cli.run(["store", "status", "--json"], device: device).json()
        return (records, status["pending"]?.int64Value)
    }

    /// The exact steps of the issue: d2's raw fetch used to move the token the store reads, so
    /// its `store sync` pulled nothing and kept v=1 for good; its next edit of another field
    /// then reverted d1's v=2 everywhere.
    @Test func storeSyncAfterFetchChangesStillPullsTheEdit() throws {
        #expect(cli.run(["store", "sync", "on"], device: "d1").status == 0)
        #expect(cli.run(["store", "put", "Item", "x", "--field", "v=1"], device: "d1").status == 0)
        #expect(cli.run(["store", "sync"], device: "d1").status == 0)
        #expect(cli.run(["store", "sync"], device: "d2").status == 0)
        #expect(cli.run(["store", "put", "Item", "x", "--field", "v=2"], device: "d1").status == 0)
        #expect(cli.run(["store", "sync"], device: "d1").status == 0)
        let fetched = try cli.run(["fetch-changes", "--json"], device: "d2").ndjson()
        #expect(fetched.last?["changed"] == .int(1))
        let sync = cli.run(["store", "sync", "--json"], device: "d2")
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(try sync.json()["pulledChanges"] == .int(1))
        #expect(try fields("d2", "x")?["v"]?["value"] == .string("2"))
        // d2 edits another field: d1's v=2 survives on every device.
        #expect(cli.run(["store", "put", "Item", "x", "--field", "w=d2"], device: "d2").status == 0)
        #expect(cli.run(["store", "sync"], device: "d2").status == 0)
        #expect(cli.run(["store", "sync"], device: "d1").status == 0)
        for device in ["d1", "d2"] {
            #expect(try fields(device, "x")?["v"]?["value"] == .string("2"))
            #expect(try fields(device, "x")?["w"]?["value"] == .string("d2"))
        }
        // The raw cache still serves fetch-changes on its own cursor.
        let again = try cli.run(["fetch-changes", "--json"], device: "d2").ndjson()
        #expect(again.filter { $0["event"]?.stringValue == "changed" }.count == 1, "d2's own edit, once")
    }

    /// The README's listener loop, on eight devices at once: each device, as its own processes,
    /// edits shared records, syncs, fetches raw changes and writes the key-value store. After
    /// final syncs every device's store is the same, with nothing pending.
    @Test func mixedLoopOnEightDevicesConverges() throws {
        let devices = (0..<8).map { "dev\($0)" }
        // The fields exist in the schema before the concurrent part.
        #expect(cli.run(["store", "sync", "on"], device: devices[0]).status == 0)
        for r in 0..<4 {
            #expect(cli.run(["store", "put", "Item", "r\(r)", "--field", "f0=start", "--field", "f1=start",
                             "--field", "f2=start"], device: devices[0]).status == 0)
        }
        #expect(cli.run(["store", "sync"], device: devices[0]).status == 0)
        let failures = home.file("failures.log")
        let script = """
            run() { "$CS" --device "$1" "${@:2}" >/dev/null 2>>"$FAILS.err" || echo "$1 $2 $3 exit $?" >> "$FAILS"; }
            loop() {
              d=$1; k=$2; i=0
              while [ $i -lt 6 ]; do
                r=r$(( (i * 3 + k) % 4 )); f=f$(( (i + k) % 3 ))
                run $d store put Item $r --field $f=$d.$i
                run $d store sync
                run $d fetch-changes
                run $d kv set key$k $i
                i=$((i + 1))
              done
            }
            k=0
            for d in \(devices.joined(separator: " ")); do loop $d $k & k=$((k + 1)); done
            wait
            """
        var env = cli.environment
        env["CS"] = cli.executable
        env["FAILS"] = failures
        let loop = ProcessSpawner.run("/bin/bash", ["-c", script], environment: env)
        #expect(loop.status == 0, "\(loop.stderr)")
        let failed = String(decoding: TemporaryDirectory.readBytes(failures) ?? [], as: UTF8.self)
        let errors = String(decoding: TemporaryDirectory.readBytes(failures + ".err") ?? [], as: UTF8.self)
        #expect(failed.isEmpty, "every command of the loop succeeded:\n\(failed)\n\(errors)")
        for _ in 0..<3 {
            for device in devices {
                let sync = cli.run(["store", "sync"], device: device)
                #expect(sync.status == 0, "\(device): \(sync.stderr)")
            }
        }
        let first = try snapshot(devices[0])
        #expect(first.records.count == 4)
        #expect(first.pending == 0)
        for device in devices.dropFirst() {
            let other = try snapshot(device)
            #expect(other.records == first.records, "\(device) differs from \(devices[0])")
            #expect(other.pending == 0)
        }
        // Every record shows the last edits: no field is back at its start value unless no
        // device ever wrote it (each field of each record was written at least once).
        for (name, fields) in first.records {
            for f in ["f0", "f1", "f2"] {
                #expect(fields[f]?["value"] != .string("start"), "\(name).\(f) lost every edit")
            }
        }
    }
}
