import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// The sync verb shared by every module that syncs a local model (`store sync`, `otp sync`):
/// `sync` alone syncs when the account's toggle is on, `sync on` turns it on and syncs, `sync
/// off [--delete-cloud-data --yes]` turns it off (and deletes the store's own zones from the
/// cloud: see `Synchronizer.ownedZones`).
/// One flow, so every family behaves the same. The CLI's part (the toggle, the prompt, the
/// printing); the sync itself is CloudSyncDevice's `AccountSync`.
public struct SyncVerb {
    /// Options every sync verb takes.
    public static let options: [OptionSpec] = [
        OptionSpec("download-only", help: "Only pull; leave local changes pending."),
        OptionSpec("batch-size", value: "N", help: "Records per modify call (1-400)."),
        OptionSpec("force-data", help: "Send BYTES fields inline this time instead of as assets."),
        OptionSpec("delete-cloud-data", help: "With off: delete the store's own zones from the cloud (its default zone and zones its syncs made; never a zone made otherwise, e.g. by zone create)."),
        OptionSpec("yes", short: "y", help: "With --delete-cloud-data: do not ask."),
    ]

    /// The optional on/off argument.
    public static let stateArgument = ArgumentSpec("state", help: "on or off: turn sync on or off for the account.",
                                                   optional: true, completion: .values(["on", "off"]))

    /// The store-config key of the merge policy.
    public static let mergePolicyKey = "merge_policy"
    /// The store-config key of force-data.
    public static let forceDataKey = PushedRecordSize.forceDataStateKey

    /// Makes the local model's adapter (given whether BYTES travel inline).
    public let makeAdapter: @Sendable (_ forceData: Bool) -> any ModelAdapter

    public init(makeAdapter: @escaping @Sendable (_ forceData: Bool) -> any ModelAdapter) {
        self.makeAdapter = makeAdapter
    }

    /// The sync options of `--download-only`, `--batch-size` and the device's `store config`
    /// settings (merge policy), and whether BYTES travel inline (`--force-data` or force-data on).
    public static func options(_ arguments: ParsedArguments, settings store: DeviceStore,
                               container: String) throws -> (SyncOptions, forceData: Bool) {
        var options = SyncOptions()
        options.downloadOnly = arguments.flag("download-only")
        if let text = arguments.value("batch-size") {
            guard let n = Int(text), (1...CloudLimits.maxRecordsPerModify).contains(n) else {
                throw CLIError.usage("--batch-size must be 1 to \(CloudLimits.maxRecordsPerModify), got '\(text)'")
            }
            options.batchSize = n
        }
        if let text = try store.syncState(container: container, SyncVerb.mergePolicyKey) {
            guard let policy = MergePolicy(rawValue: text) else {
                throw CLIError.failed("the store's merge policy '\(text)' is unknown; set it with 'store config merge-policy'")
            }
            options.mergePolicy = policy
        }
        let configuredForceData = try store.syncState(container: container, SyncVerb.forceDataKey) == "on"
        return (options, arguments.flag("force-data") || configuredForceData)
    }

    /// Runs the verb: `on` or `off` first when given, then (unless `off`) one sync when the
    /// account's switch is on, its report printed.
    public func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try context.deviceStore()
        let container = context.settings.container
        let (options, forceData) = try Self.options(arguments, settings: store, container: container)
        let state = arguments.argument("state")
        if arguments.flag("delete-cloud-data") && state != "off" {
            throw CLIError.usage("--delete-cloud-data goes with 'sync off'")
        }
        var learnedSwitch = false
        if state == nil, try !SyncToggle.isOn(store: store, container: container) {
            guard try Self.learnSwitch(context, store: store, arguments) else { return }
            learnedSwitch = true
        }
        let session = try context.session()
        let keyValues = try session.keyValueSync()
        let now = systemClock()
        var turnedOn: (changed: Bool, adapter: any ModelAdapter)?
        switch state {
        case "on"?:
            turnedOn = try turnOn(context, session: session, store: store, keyValues: keyValues, forceData: forceData, now: now)
        case "off"?:
            try turnOff(context, arguments, session: session, store: store, keyValues: keyValues, options: options,
                        forceData: forceData, now: now)
            return
        case nil:
            if !learnedSwitch { try keyValues.sync() }
        case let other?:
            throw CLIError.usage("unknown sync state '\(other)'; use on or off")
        }
        guard try SyncToggle.isOn(store: store, container: container) else {
            try Self.printOff(context, store: store, arguments, offline: nil)
            return
        }
        let adapter = try turnedOn?.adapter ?? session.storeAdapter(makeAdapter(forceData))
        try sync(context, session: session, store: store, adapter: adapter, options: options, forceData: forceData,
                 turnedOn: turnedOn?.changed)
    }

    /// Sync off as this device last saw it: only the switch is asked for. When the cloud cannot
    /// be reached that value holds: nothing is sent, so nothing failed (no 69); then this says
    /// so and returns false.
    static func learnSwitch(_ context: CommandContext, store: DeviceStore, _ arguments: ParsedArguments) throws -> Bool {
        do {
            try context.session().keyValueSync().sync()
            return true
        } catch let error as CloudError where error.code.isRetryable {
            try printOff(context, store: store, arguments, offline: error.reason)
            return false
        }
    }

    /// `sync on`: checks that the store's adapter can be made, turns the account's switch on and
    /// says so. Returns whether this changed the switch (false: it was on already) and the adapter.
    func turnOn(_ context: CommandContext, session: CloudSession, store: DeviceStore, keyValues: KeyValueSync,
                forceData: Bool, now: Int64) throws -> (changed: Bool, adapter: any ModelAdapter) {
        let container = context.settings.container
        // Check first: what every sync will need (the data key for encrypted fields) must be
        // at hand before the account-wide flag goes on, or every later sync would fail.
        try keyValues.sync()
        let wasOn = try SyncToggle.isOn(store: store, container: container)
        let adapter: any ModelAdapter
        do {
            adapter = try session.storeAdapter(makeAdapter(forceData))
        } catch var error as CloudError where !wasOn {
            error.reason += "; sync stays off"
            throw error
        } catch CLIError.usage(let reason) where !wasOn {
            throw CLIError.usage(reason + "; sync stays off")  // no passphrase given: 64
        }
        if !wasOn {
            try SyncToggle.set(true, store: store, container: container, now: now)
            try keyValues.sync()
        }
        // The result of `on` (stdout, as `off` prints its own); JSON carries it in the report.
        if !context.output.isJSON {
            context.output.line(wasOn ? "sync was already on for account \(context.settings.account)"
                                      : "sync is on for account \(context.settings.account)")
        }
        return (!wasOn, adapter)
    }

    /// `sync off [--delete-cloud-data [--yes]]`: turns the account's switch off (after the
    /// prompt, when deleting without `--yes`), deletes the store's own zones when asked, and
    /// says so.
    func turnOff(_ context: CommandContext, _ arguments: ParsedArguments, session: CloudSession, store: DeviceStore,
                 keyValues: KeyValueSync, options: SyncOptions, forceData: Bool, now: Int64) throws {
        if arguments.flag("delete-cloud-data") && !arguments.flag("yes") {
            guard context.isInteractive else {
                throw CLIError.usage("deleting the cloud copy needs confirmation: add --yes")
            }
            guard Prompt.confirm("Delete the synced data from the cloud? Other devices keep theirs. [y/N] ",
                                 output: context.output) else {
                Prompt.declined("kept the cloud data; sync left on (nothing deleted)", output: context.output)
                return
            }
        }
        try SyncToggle.set(false, store: store, container: context.settings.container, now: now)
        try keyValues.sync()
        var deleted: [String] = []
        if arguments.flag("delete-cloud-data") {
            deleted = try accountSync(context, session: session, store: store).deleteCloudData(options: options, forceData: forceData)
        }
        if context.output.isJSON {
            let request = session.request(.private)
            context.output.json(.object([("syncEnabled", .bool(false)), ("deletedZones", .array(deleted.map {
                ZoneJSON.encodeDeletion(request.zoneID($0), purged: false)  // as `zone delete` prints a deleted zone
            }))]))
        } else {
            context.output.line("sync is off for account \(context.settings.account); local changes keep recording")
            for zone in deleted { context.output.line("deleted zone \(zone) from the cloud") }
        }
    }

    /// Syncs the account (with a progress bar on a terminal), prints the report and throws what
    /// failed: the one failure's own error, or `partialFailure` naming them all.
    func sync(_ context: CommandContext, session: CloudSession, store: DeviceStore, adapter: any ModelAdapter,
              options: SyncOptions, forceData: Bool, turnedOn: Bool?) throws {
        let bar = ProgressBar(enabled: isatty(2) == 1 && !context.settings.quiet && !context.output.isJSON, output: context.output)
        let report = try accountSync(context, session: session, store: store)
            .sync(adapter: adapter, options: options, forceData: forceData,
                  progress: { progress in bar.show(progress) }, events: { event in Self.warn(event, context) })
        bar.finish()
        SyncVerb.print(report, context, turnedOn: turnedOn)
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

    /// Says that sync is off (`offline`: why the cloud could not be asked; the switch as last seen holds).
    static func printOff(_ context: CommandContext, store: DeviceStore, _ arguments: ParsedArguments, offline: String?) throws {
        let container = context.settings.container
        if context.output.isJSON {
            context.output.json(.object([("syncEnabled", .bool(false)),
                                         ("pending", .int(Int64(try store.pendingCount(container: container))))]))
        } else {
            let seen = offline.map { " (as last seen: the cloud cannot be reached: \($0))" } ?? ""
            context.output.line("sync is off for account \(context.settings.account)\(seen): nothing was sent or fetched; turn it on with 'cloudsync \((arguments.commandPath).joined(separator: " ")) on'")
        }
    }

    /// What a device says when its tokens came from another cloud store.
    public static let epochChangedMessage =
        "the cloud was replaced or recreated (its store epoch changed): dropped this device's change tokens and cached copy; fetching everything again"

    /// Prints a sync report as text or JSON. `turnedOn`: for `sync on`, whether this run
    /// switched the account's flag on (false: it was on already); JSON then carries
    /// `syncEnabled` and `syncTurnedOn`.
    /// `extra`: members appended to the JSON report (the public mirror's scan figures).
    public static func print(_ report: SyncReport, _ context: CommandContext, turnedOn: Bool? = nil,
                             extra: [(String, JSONValue)] = []) {
        let out = context.output
        if out.isJSON {
            let toggle: [(String, JSONValue)] = turnedOn.map { [("syncEnabled", .bool(true)), ("syncTurnedOn", .bool($0))] } ?? []
            out.json(.object(toggle + extra + [
                ("saved", .int(Int64(report.savedRecords))), ("deleted", .int(Int64(report.deletedRecords))),
                ("pulledChanges", .int(Int64(report.pulledChanges))), ("pulledDeletions", .int(Int64(report.pulledDeletions))),
                ("conflicts", .array(report.conflicts.map { conflict in
                    .object([("zoneName", .string(conflict.zoneName)), ("recordName", .string(conflict.recordName)),
                             ("policy", .string(conflict.policy.rawValue)), ("resolution", .string(conflict.resolution)),
                             ("contestedKeys", .array(conflict.contestedKeys.map { .string($0) }))])
                })),
                ("recreatedZones", .array(report.recreatedZones.map { .string($0) })),
                ("droppedZones", .array(report.droppedZones.map { .string($0) })),
                ("failures", .array(report.failures.sorted { $0.key.recordName < $1.key.recordName }.map { id, error in
                    .object([("recordName", .string(id.recordName)), ("zoneName", .string(id.zoneID.zoneName)),
                             ("serverErrorCode", .string(error.code.serverErrorCode)), ("reason", .string(error.reason))])
                })),
                ("pending", .int(Int64(report.pendingAfter))),
                ("events", .array(report.epochChanged ? [.object([("event", .string("epochChanged"))])] : [])),
            ]))
            return
        }
        if report.epochChanged { out.warning(.text(epochChangedMessage)) }
        for zone in report.recreatedZones {
            out.line("zone \(zone) was missing in the cloud: re-created, its records uploaded again")
        }
        for zone in report.droppedZones {
            out.line("zone \(zone) was deleted in the cloud on purpose: dropped here too (this device had nothing unpushed in it)")
        }
        for conflict in report.conflicts {
            out.line("conflict \(conflict.zoneName)/\(conflict.recordName): \(conflict.resolution)")
        }
        out.line("pushed \(report.savedRecords) saved, \(report.deletedRecords) deleted; pulled \(report.pulledChanges) changed, \(report.pulledDeletions) deleted; \(report.conflicts.count) conflicts; \(report.pendingAfter) pending")
    }
}
