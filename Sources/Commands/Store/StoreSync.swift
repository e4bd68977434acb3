import CloudSyncCLI
import CloudSyncCloud
import CloudSyncCore
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// `store sync`: push pending changes, pull, report conflicts.
enum StoreSync {
    static let spec = CommandSpec(
        name: "sync", abstract: "Push pending changes to the cloud, then pull what changed.",
        discussion: """
            Pushes pending changes in batches (default 400, the most CloudKit takes) with the \
            cached change tags, resolves conflicts by the merge policy, re-creates zones the cloud \
            lost and uploads their records again, retries transient failures with bounded \
            backoff, then pulls with the two-phase fetch. A failed sync leaves the local store as \
            it was and its changes pending. Progress goes to stderr on a terminal.
            """,
        options: [
            OptionSpec("download-only", help: "Only pull; leave local changes pending."),
            OptionSpec("batch-size", value: "N", help: "Records per modify call (1-400)."),
            OptionSpec("force-data", help: "Send BYTES fields inline this time instead of as assets."),
        ],
        examples: [Example("cloudsync --device phone store sync", "Sync the phone."),
                   Example("cloudsync store sync --json", "The report as JSON.")],
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        var options = SyncOptions()
        options.downloadOnly = arguments.flag("download-only")
        if let text = arguments.value("batch-size") {
            guard let n = Int(text), (1...CloudLimits.maxRecordsPerModify).contains(n) else {
                throw CLIError.usage("--batch-size must be 1 to \(CloudLimits.maxRecordsPerModify), got '\(text)'")
            }
            options.batchSize = n
        }
        let store = try context.deviceStore()
        let container = StoreCommand.container(context)
        if let text = try store.syncState(container: container, StoreConfig.mergePolicyKey) {
            guard let policy = MergePolicy(rawValue: text) else {
                throw CLIError.failed("the store's merge policy '\(text)' is unknown; set it with 'store config merge-policy'")
            }
            options.mergePolicy = policy
        }
        let configuredForceData = try store.syncState(container: container, StoreConfig.forceDataKey) == "on"
        let forceData = arguments.flag("force-data") || configuredForceData
        let session = try context.session()
        let synchronizer = Synchronizer(cloud: session.retryingCloud, store: store, request: session.request(.private),
                                        adapter: GenericStoreAdapter(forceData: forceData), options: options)
        let bar = ProgressBar(enabled: isatty(2) == 1 && !context.settings.quiet && !context.output.isJSON, output: context.output)
        let report = try synchronizer.sync { progress in bar.show(progress) }
        bar.finish()
        print(report, context)
        if report.failures.count == 1, let (id, error) = report.failures.first {
            var only = error
            only.recordID = id
            throw only
        }
        if !report.failures.isEmpty {
            throw CloudError(.partialFailure, "\(report.failures.count) records could not be pushed; they stay pending",
                             partialErrors: report.failures)
        }
    }

    static func print(_ report: SyncReport, _ context: CommandContext) {
        let out = context.output
        if out.isJSON {
            out.json(.object([
                ("saved", .int(Int64(report.savedRecords))), ("deleted", .int(Int64(report.deletedRecords))),
                ("pulledChanges", .int(Int64(report.pulledChanges))), ("pulledDeletions", .int(Int64(report.pulledDeletions))),
                ("conflicts", .array(report.conflicts.map { conflict in
                    .object([("zoneName", .string(conflict.zoneName)), ("recordName", .string(conflict.recordName)),
                             ("policy", .string(conflict.policy.rawValue)), ("resolution", .string(conflict.resolution)),
                             ("contestedKeys", .array(conflict.contestedKeys.map { .string($0) }))])
                })),
                ("recreatedZones", .array(report.recreatedZones.map { .string($0) })),
                ("failures", .array(report.failures.sorted { $0.key.recordName < $1.key.recordName }.map { id, error in
                    .object([("recordName", .string(id.recordName)), ("zoneName", .string(id.zoneID.zoneName)),
                             ("serverErrorCode", .string(error.code.serverErrorCode)), ("reason", .string(error.reason))])
                })),
                ("pending", .int(Int64(report.pendingAfter))),
            ]))
            return
        }
        for zone in report.recreatedZones {
            out.line("zone \(zone) was missing in the cloud: re-created, its records uploaded again")
        }
        for conflict in report.conflicts {
            out.line("conflict \(conflict.zoneName)/\(conflict.recordName): \(conflict.resolution)")
        }
        out.line("pushed \(report.savedRecords) saved, \(report.deletedRecords) deleted; pulled \(report.pulledChanges) changed, \(report.pulledDeletions) deleted; \(report.conflicts.count) conflicts; \(report.pendingAfter) pending")
    }
}

/// A one-line progress bar on stderr, redrawn in place; silent when disabled.
final class ProgressBar {
    let enabled: Bool
    let output: Output
    var drawn = false

    init(enabled: Bool, output: Output) {
        self.enabled = enabled
        self.output = output
    }

    func show(_ progress: SyncProgress) {
        guard enabled else { return }
        let text: String
        switch progress {
        case .pushing(let done, let total):
            let width = 30
            let filled = total == 0 ? width : width * done / max(total, 1)
            text = "pushing [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total)"
        case .pulling(let records):
            text = "pulling \(records) records"
        }
        output.writeError("\r\u{1B}[2K" + text)
        drawn = true
    }

    func finish() {
        if drawn { output.writeError("\r\u{1B}[2K") }
    }
}
