import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice

/// `store sync --database public`: the public mirror (seed 002). The account's sync toggle,
/// merge policy and force-data setting are the private store's; the data, history, pending
/// changes and conflict log are the public store's own.
enum StorePublicSync {
    /// `--full-scan`.
    static let fullScanOption = OptionSpec("full-scan", help: "With --database public: scan every mirrored type in full now, to find records deleted upstream.")

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        if let state = arguments.argument("state") {
            throw CLIError.usage("'store sync \(state)' turns sync on or off for the whole account: run it without --database public")
        }
        let settingsStore = try context.deviceStore()
        let container = StoreCommand.container(context)
        let (options, forceData) = try SyncVerb.options(arguments, settings: settingsStore, container: container)
        let types = try PublicStoreSettings.types(settingsStore, container)
        guard !types.isEmpty else {
            throw CLIError.usage("no public record types to mirror: choose them with 'cloudsync store config public-types TYPE…'")
        }
        let session = try context.session()
        try session.keyValueSync().sync()
        guard try SyncToggle.isOn(store: settingsStore, container: container) else {
            let publicStore = try context.publicDeviceStore()
            if context.output.isJSON {
                context.output.json(.object([("syncEnabled", .bool(false)),
                                             ("pending", .int(Int64(try publicStore.pendingCount(container: container))))]))
            } else {
                context.output.line("sync is off for account \(context.settings.account): nothing was sent or fetched; turn it on with 'cloudsync store sync on'")
            }
            return
        }
        let mirror = PublicMirror(cloud: session.retryingCloud, store: try context.publicDeviceStore(),
                                  request: session.request(.public),
                                  adapter: GenericStoreAdapter(zoneName: ZoneID.defaultZoneName, forceData: forceData),
                                  recordTypes: types, options: options)
        mirror.scanInterval = try PublicStoreSettings.scanInterval(settingsStore, container)
        mirror.forceScan = arguments.flag("full-scan")
        let report = try mirror.sync()
        let work = mirror.work
        SyncVerb.print(report, context, extra: [
            ("database", .string("public")),
            ("types", .array(mirror.recordTypes.map { .string($0) })),
            ("scannedTypes", .array(work.scannedTypes.map { .string($0) })),
            ("queries", .int(Int64(work.queries))),
            ("recordsReturned", .int(Int64(work.recordsReturned))),
        ])
        if !context.output.isJSON, !work.scannedTypes.isEmpty {
            context.output.line("full scan of \(work.scannedTypes.joined(separator: ", ")): \(work.queries) queries, \(work.recordsReturned) records read, \(work.deletionsFound) deleted upstream")
        }
        if report.failures.count == 1, let (id, error) = report.failures.first {
            var only = error
            only.recordID = id
            only.reason += "; the change stays pending in the public store ('store revert \(id.recordName) --database public' drops it)"
            throw only
        }
        if !report.failures.isEmpty {
            throw CloudError(.partialFailure, "\(report.failures.count) records could not be pushed to the public database; they stay pending",
                             partialErrors: report.failures)
        }
    }
}
