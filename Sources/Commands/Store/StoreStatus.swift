import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncDevice

/// `store status` and `store conflicts`.
enum StoreStatus {
    static let spec = CommandSpec(
        name: "status", abstract: "Pending changes, last sync, tokens and conflicts (offline).",
        options: [StoreDatabase.option],
        examples: [
            Example("cloudsync store status --json", "Pending changes, last sync and conflicts as JSON."),
        ],
        jsonOutput: StoreJSONOutput.status,
        run: { context, arguments in
            let store = try StoreDatabase.store(context, arguments)
            let container = StoreCommand.container(context)
            let status = try store.storeStatus(container: container)
            let policy = try context.deviceStore().syncState(container: container, StoreConfig.mergePolicyKey) ?? MergePolicy.fields.rawValue
            // The account-wide switch as this device last saw it (offline: no cloud call).
            let syncOn = try SyncToggle.isOn(store: context.deviceStore(), container: container)
            // The public store: per mirrored type, the newest modification time applied and the last full scan.
            let mirrored = try StoreDatabase.isPublic(context, arguments) ? try mirrorStates(store, container) : nil
            // A `sync --watch` of this device, if one runs (its lock is held).
            let watcher = SyncWatcherLock.running(devicePath: context.settings.deviceStorePath)
            if context.output.isJSON {
                context.output.json(.object((mirrored.map { [("publicTypes", JSONValue.array($0.map { state in
                    .object([("recordType", .string(state.type)), ("watermark", state.watermark.map { .int($0) } ?? .null),
                             ("lastFullScan", state.lastScan.map { .int($0) } ?? .null)])
                }))] } ?? []) + [
                    ("syncEnabled", .bool(syncOn)),
                    ("records", .int(Int64(status.records))), ("pending", .int(Int64(status.pending))),
                    ("lastSync", status.lastSync.map { .int($0) } ?? .null),
                    ("databaseToken", .bool(status.hasDatabaseToken)), ("zoneTokens", .int(Int64(status.zoneTokens))),
                    ("mergePolicy", .string(policy)), ("conflicts", .int(Int64(status.conflicts))),
                    ("unresolvedConflicts", .int(Int64(status.unresolvedConflicts))),
                    ("watcher", watcherJSON(watcher)),
                ]))
                return
            }
            let out = context.output
            out.line("sync:                 \(syncOn ? "on" : "off (turn it on with 'store sync on')")")
            out.line("records:              \(status.records)")
            out.line("pending changes:      \(status.pending)")
            out.line("last successful sync: \(status.lastSync.map { ISO8601.format(milliseconds: $0) } ?? "never")")
            out.line("database token:       \(status.hasDatabaseToken ? "stored" : "none")")
            out.line("zone tokens:          \(status.zoneTokens)")
            out.line("merge policy:         \(policy)")
            out.line("conflicts:            \(status.conflicts) logged, \(status.unresolvedConflicts) unresolved")
            if let watcher {
                let last = watcher.lastCycle.map { ISO8601.format(milliseconds: $0) } ?? "none yet"
                out.line("watcher:              PID \(watcher.pid), \(watcher.state), since \(ISO8601.format(milliseconds: watcher.since)), last cycle \(last)")
            } else {
                out.line("watcher:              none (start one with 'cloudsync sync --watch')")
            }
            for state in mirrored ?? [] {
                out.line("public type \(state.type): newest change applied \(state.watermark.map { ISO8601.format(milliseconds: $0) } ?? "none"), last full scan \(state.lastScan.map { ISO8601.format(milliseconds: $0) } ?? "never")")
            }
        })

    /// The running watcher as JSON, or null.
    static func watcherJSON(_ watcher: SyncWatcherLock.Status?) -> JSONValue {
        guard let watcher else { return .null }
        let lastCycle: JSONValue = watcher.lastCycle.map { .int($0) } ?? .null
        return .object([("pid", .int(Int64(watcher.pid))), ("since", .int(watcher.since)), ("lastCycle", lastCycle),
                        ("state", .string(watcher.state))])
    }

    /// The mirror's state of every type the public store has synced.
    static func mirrorStates(_ store: DeviceStore, _ container: String) throws -> [(type: String, watermark: Int64?, lastScan: Int64?)] {
        let watermarks = Dictionary(try store.syncStates(container: container, prefix: PublicMirror.watermarkPrefix)
            .map { (String($0.0.dropFirst(PublicMirror.watermarkPrefix.count)), Int64($0.1)) }, uniquingKeysWith: { a, _ in a })
        let scans = Dictionary(try store.syncStates(container: container, prefix: PublicMirror.scanPrefix)
            .map { (String($0.0.dropFirst(PublicMirror.scanPrefix.count)), Int64($0.1)) }, uniquingKeysWith: { a, _ in a })
        return Set(watermarks.keys).union(scans.keys).sorted().map { type in
            (type, watermarks[type] ?? nil, scans[type] ?? nil)
        }
    }

    static let conflicts = CommandSpec(
        name: "conflicts", abstract: "Show the conflict log: every conflict and how it was resolved.",
        options: [OptionSpec("unresolved", help: "Only conflicts still waiting."),
                  OptionSpec("limit", value: "N", help: "At most N entries (default 50)."), StoreDatabase.option, StoreCommand.ownerOption],
        examples: [
            Example("cloudsync store conflicts --unresolved", "Only the conflicts still waiting."),
        ],
        jsonOutput: StoreJSONOutput.conflicts,
        run: { context, arguments in
            var limit = 50
            if let text = arguments.value("limit") {
                guard let n = Int(text), n >= 1 else { throw CLIError.usage("--limit must be a positive number, got '\(text)'") }
                limit = n
            }
            let entries = try StoreDatabase.store(context, arguments).conflicts(container: StoreCommand.container(context),
                                                              unresolvedOnly: arguments.flag("unresolved"), limit: limit)
            if context.output.isJSON {
                context.output.json(.object([("conflicts", .array(entries.map { entry in
                    .object([("id", .int(entry.id)), ("time", .int(entry.time)), ("zoneName", .string(entry.zoneName)),
                             ("recordName", .string(entry.recordName)), ("policy", .string(entry.policy)),
                             ("resolution", .string(entry.resolution)), ("resolved", .bool(entry.resolved)),
                             ("detail", (try? JSONValue.parse(entry.detail)) ?? .null)])
                }))]))
                return
            }
            if entries.isEmpty { context.output.line("No conflicts."); return }
            for entry in entries {
                context.output.line("\(entry.id)  \(ISO8601.format(milliseconds: entry.time))  \(entry.zoneName)/\(entry.recordName)  [\(entry.policy)] \(entry.resolution)\(entry.resolved ? "" : " (unresolved)")")
            }
        })
}
