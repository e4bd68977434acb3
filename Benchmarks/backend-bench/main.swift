import BenchSupport
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// backend-bench: the PostgreSQL backend (issue 11) and `cloudsync serve` (issue 12) as ratios
/// to the embedded SQLite cloud measured in the same run. Progress on stderr, one JSON document
/// on stdout (and in --json-out). Exit 0 when it ran (targets missed are in the document), 1 when
/// a part failed, 64 usage.
func loadJSON() -> JSONValue {
    var loads = [Double](repeating: 0, count: 3)
    _ = getloadavg(&loads, 3)
    return .array(loads.map { .double(round3($0)) })
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "--run-measured" { return TimedCommand.runMeasured(Array(arguments.dropFirst())) }
    if arguments.contains("-h") || arguments.contains("--help") { print(BackendOptions.usage); return 0 }
    let options: BackendOptions
    do {
        let environment = getenv("CLOUDSYNC_TEST_POSTGRES_URL").map { String(cString: $0) }
        let replica = getenv("CLOUDSYNC_TEST_POSTGRES_REPLICA_URL").map { String(cString: $0) }
        options = try BackendOptions(arguments: arguments, environment: environment, replica: replica)
    } catch {
        log("backend-bench: \(error)\n\n\(BackendOptions.usage)")
        return 64
    }
    let cloudsync = options.cloudsync ?? selfFolder() + "/cloudsync"
    guard access(cloudsync, X_OK) == 0 else { log("backend-bench: no cloudsync at \(cloudsync) (use --cloudsync)"); return 64 }
    var template = Array((options.workBase + "/backend-bench.XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { log("mkdtemp failed"); return 1 }
    let work = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { _ = system("rm -rf '\(work)'") }
    let loadAtStart = loadJSON()
    let start = Clock.now()
    log("backend-bench (\(options.quick ? "quick" : "full") sizes), files in \(work), load \(loadAtStart.serialized())")
    var pairs: [(String, JSONValue)] = [("mode", .string(options.quick ? "quick" : "full"))]
    do {
        if options.cluster {
            guard let script = options.clusterScript else { throw BenchFailure("--cluster needs --cluster-script PATH (scripts/cluster)") }
            pairs.append(("cluster", try ClusterPart(options: options, work: work, cloudsync: cloudsync, script: script).run()))
        } else if options.replicas {
            guard let url = options.postgresURL, let replica = options.replicaURL else {
                throw BenchFailure("--replicas needs --postgres URL and --replica URL (or scripts/with-postgres's variables)")
            }
            pairs.append(("replicas", try ReplicaPart(options: options, postgresURL: url, replicaURL: replica, work: work,
                                                      cloudsync: cloudsync).run()))
        } else if options.load {
            guard let url = options.postgresURL else { throw BenchFailure("--load needs --postgres URL or CLOUDSYNC_TEST_POSTGRES_URL") }
            pairs.append(("load", try LoadPart(options: options, postgresURL: url, work: work, cloudsync: cloudsync).run()))
        } else if options.paging {
            pairs.append(("paging", try PagingPart(options: options, work: work, cloudsync: cloudsync).run()))
        } else if options.hostile {
            pairs.append(("hostile", try HostilePart(options: options, work: work, cloudsync: cloudsync).run()))
            pairs.append(("subscription_width", try SubscriptionWidthPart(options: options, work: work, cloudsync: cloudsync).run()))
        } else if options.skipPostgres || options.postgresURL == nil {
            if !options.skipPostgres { log("[postgres] skipped: no --postgres URL and no CLOUDSYNC_TEST_POSTGRES_URL") }
            pairs.append(("postgres", .null))
        } else {
            pairs.append(("postgres", try PostgresPart(options: options, url: options.postgresURL!, work: work, cloudsync: cloudsync).run()))
            pairs.append(("load_after_postgres", loadJSON()))
        }
        if !options.hostile && !options.paging && !options.load && !options.cluster && !options.replicas {
            pairs.append(("serve", options.skipServe ? .null : try ServePart(options: options, work: work, cloudsync: cloudsync).run()))
            pairs.append(("paging", options.skipPaging ? .null : try PagingPart(options: options, work: work, cloudsync: cloudsync).run()))
        }
    } catch {
        log("backend-bench: \(error)")
        return 1
    }
    pairs.append(("machine", .object([("load_at_start", loadAtStart), ("load_at_end", loadJSON())])))
    pairs.append(("total_seconds", .double(round3(Clock.now() - start))))
    let document = JSONValue.object(pairs).prettyPrinted()
    print(document)
    if let path = options.jsonOut {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if fd >= 0 {
            let bytes = Array((document + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }
    return 0
}

exit(main())
