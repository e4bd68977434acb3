import BenchSupport
import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// subscribe-bench: delivery latency of notifications on the embedded cloud, from a commit on
/// device A (this process, through the library) to the line `cloudsync subscribe listen --json`
/// prints on device B (a child process), over sequential changes; then the listener's CPU time
/// over an idle period. Prints one JSON document on stdout, progress on stderr.
///
///     subscribe-bench [--changes N] [--warmup N] [--idle-seconds S] [--kind database|query]
///                     [--cloudsync PATH] [--json-out FILE]

struct Options {
    var changes = 1000
    var warmup = 20
    var idleSeconds = 60.0
    var kind = "database"
    var cloudsync: String?
    var jsonOut: String?

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(_ name: String) throws -> String {
            guard let next = rest.popFirst() else { throw BenchFailure("\(name) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--changes": changes = Int(try value(argument)) ?? changes
            case "--warmup": warmup = Int(try value(argument)) ?? warmup
            case "--idle-seconds": idleSeconds = Double(try value(argument)) ?? idleSeconds
            case "--kind": kind = try value(argument)
            case "--cloudsync": cloudsync = try value(argument)
            case "--json-out": jsonOut = try value(argument)
            case "-h", "--help":
                print("usage: subscribe-bench [--changes N] [--warmup N] [--idle-seconds S] [--kind database|query] [--cloudsync PATH] [--json-out FILE]")
                exit(0)
            default: throw BenchFailure("unknown argument \(argument)")
            }
        }
        guard kind == "database" || kind == "query" else { throw BenchFailure("--kind is database or query") }
    }
}

func log(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func selfFolder() -> String {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBufferPointer { pointer in
        pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
    }
    let path = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : "./x"
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}

func makeTemporaryFolder() throws -> String {
    var template = Array("/tmp/subscribe-bench.XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
        throw BenchFailure("mkdtemp failed")
    }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func run() throws {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let cloudsync = options.cloudsync ?? selfFolder() + "/cloudsync"
    guard access(cloudsync, X_OK) == 0 else { throw BenchFailure("no cloudsync executable at \(cloudsync) (use --cloudsync)") }
    let home = try makeTemporaryFolder()
    defer { _ = system("rm -rf '\(home)'") }
    let container = "iCloud.com.example.Bench"
    let cloud = try SQLiteCloud(path: home + "/cloud.sqlite")
    let account = try cloud.account(named: "alice")
    let laptop = DatabaseRequest(container: container, scope: .private, userRecordName: account.userRecordName, deviceID: "laptop")
    let phone = DatabaseRequest(container: container, scope: .private, userRecordName: account.userRecordName, deviceID: "phone")
    _ = try cloud.saveZones([ZoneSpec(name: "Bench", atomic: false)], in: laptop)
    let subscription = options.kind == "database"
        ? Subscription(subscriptionID: "private-changes", kind: .database)
        : Subscription(subscriptionID: "bench-notes",
                       kind: .query(QuerySubscription(recordType: "Note", predicate: try PredicateParser.parse("n >= 0"))),
                       notificationInfo: NotificationInfo(desiredKeys: ["n"]))
    _ = try cloud.saveSubscriptions([subscription], in: phone)

    let environment = ["CLOUDSYNC_HOME": home, "CLOUDSYNC_ACCOUNT": "alice", "CLOUDSYNC_CONTAINER": container,
                       "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "HOME": home,
                       "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    let listener = try LineProcess(executable: cloudsync, arguments: ["--device", "phone", "--json", "subscribe", "listen"],
                                       environment: environment, stderrPath: home + "/listener.log")
    var counter = 0
    func change() throws {
        counter += 1
        let record = Record(recordID: RecordID(recordName: "r\(counter % 100)", zoneID: laptop.zoneID("Bench")),
                            recordType: "Note", fields: ["n": .int64(Int64(counter))])
        let result = try cloud.modifyRecords(ModifyRequest(saves: [record], policy: .allKeys), in: laptop)
        if let failure = result.partialFailure { throw failure }
    }
    func expectLine(_ what: String) throws -> String {
        guard let line = listener.readLine(timeout: 10) else { throw BenchFailure("no notification line for \(what) within 10 s") }
        guard (try? JSONValue.parse(line))?["notificationType"] != nil else { throw BenchFailure("unexpected line: \(line)") }
        return line
    }

    log("subscribe-bench: \(options.kind) subscription, \(options.warmup) warm-up + \(options.changes) changes, listener \(cloudsync)")
    for i in 0..<options.warmup { try change(); _ = try expectLine("warm-up change \(i)") }
    var fromCall: [Double] = []
    var fromCommit: [Double] = []
    var commitCost: [Double] = []
    for i in 0..<options.changes {
        let start = Clock.now()
        try change()
        let committed = Clock.now()
        _ = try expectLine("change \(i)")
        let printed = Clock.now()
        fromCall.append((printed - start) * 1000)
        fromCommit.append(max(0, printed - committed) * 1000)
        commitCost.append((committed - start) * 1000)
    }
    if listener.readLine(timeout: 0.2) != nil { throw BenchFailure("the listener printed more lines than changes") }
    let latency = LatencyStats(fromCall)
    log("latency commit -> line: median \(fixed(latency.quantile(0.5))) ms, p99 \(fixed(latency.quantile(0.99))) ms, "
        + "max \(fixed(latency.sorted.last ?? 0)) ms")

    log("idle for \(options.idleSeconds) s …")
    let cpuBefore = listener.cpuNanoseconds()
    let ticksBefore = listener.cpuTicks()
    Clock.sleep(options.idleSeconds)
    let idleCPU = Double(listener.cpuNanoseconds() &- cpuBefore) / 1e6
    let idleTicks = listener.cpuTicks() - ticksBefore
    let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
    let totalCPU = listener.stop()
    log("listener CPU over \(fixed(options.idleSeconds)) s idle: \(fixed(idleCPU)) ms "
        + "(\(fixed(idleCPU / (options.idleSeconds * 10), digits: 4)) % of a core)")

    let document = JSONValue.object([
        ("benchmark", .string("subscribe-latency")),
        ("backend", .string("sqlite (embedded), wake-up by inotify")),
        ("subscription", .string(options.kind)),
        ("changes", .int(Int64(options.changes))),
        ("latencyMs", latency.json),
        ("latencyAfterCommitReturnedMs", LatencyStats(fromCommit).json),
        ("commitCallMs", LatencyStats(commitCost).json),
        ("targets", .object([("medianMs", .double(50)), ("p99Ms", .double(200))])),
        ("meetsTargets", .bool(latency.quantile(0.5) < 50 && latency.quantile(0.99) < 200)),
        ("idle", .object([("seconds", .double(options.idleSeconds)), ("listenerCpuMs", .double(round3(idleCPU))),
                          ("listenerCpuTicks", .int(Int64(idleTicks))), ("ticksPerSecond", .double(ticksPerSecond))])),
        ("listenerTotalCpuMs", .double(round3(totalCPU))),
    ])
    let text = document.prettyPrinted()
    print(text)
    if let path = options.jsonOut {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 {
            let bytes = Array((text + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }
}

do {
    try run()
} catch {
    log("subscribe-bench: \(error)")
    exit(1)
}
