import CloudSyncCloud
import CloudSyncCore
import CloudSyncDevice

/// The hidden subcommand `cloudsync-bench child-fetch-run CLOUD DEVICE [PAGE_SIZE]`: fetches
/// every change of the bench account's private database from the cloud file into a fresh device
/// file, then prints one JSON line with its own figures (timing, RSS before the fetch, VmHWM).
/// It is started by `ChildFetchRelay`, which reads its peak RSS from wait4.
enum ChildFetchCommand {
    static let name = "child-fetch-run"

    static func run(_ arguments: [String]) throws -> JSONValue {
        guard arguments.count == 2 || arguments.count == 3 else {
            throw BenchError("usage: cloudsync-bench \(name) CLOUD DEVICE [PAGE_SIZE]")
        }
        let rssAtStart = ProcessMemory.residentKiB
        let cloud = try SQLiteCloud(path: arguments[0])
        let request = try BenchSetup.request(cloud)
        let store = try DeviceStore(path: arguments[1])
        var fetcher = ChangeFetcher(cloud: cloud, store: store, request: request)
        if arguments.count == 3, let size = Int(arguments[2]) { fetcher.pageSize = size }
        let rssBeforeFetch = ProcessMemory.residentKiB
        let (summary, seconds) = try MonotonicClock.measure { try fetcher.fetch() }
        return .object([
            ("records", JSONFigures.int(summary.changedRecords)),
            ("pages", JSONFigures.int(summary.pages)),
            ("page_size", JSONFigures.int(fetcher.pageSize)),
            ("seconds", JSONFigures.number(seconds, 4)),
            ("rss_at_start_kb", JSONFigures.int(rssAtStart)),
            ("rss_before_fetch_kb", JSONFigures.int(rssBeforeFetch)),
            ("rss_after_fetch_kb", JSONFigures.int(ProcessMemory.residentKiB)),
            ("vm_hwm_kb", JSONFigures.int(ProcessMemory.peakKiB)),
        ])
    }
}
