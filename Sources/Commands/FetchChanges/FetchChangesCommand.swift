import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice

/// `cloudsync fetch-changes`: the two-phase fetch of seed 001 into this device's cache.
public enum FetchChangesCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "fetch-changes",
        abstract: "Fetch what changed in the cloud since this device last asked.",
        discussion: """
            Asks the database which zones changed, then fetches each changed zone page by page. \
            Each page is written to this device's cache together with the zone's change token in \
            one transaction, and the database token is stored last, so an interrupted fetch \
            loses nothing and resumes where it stopped. Prints each changed and deleted record \
            (NDJSON with --json). With nothing new it says so and exits 0. Transient failures \
            are retried with backoff. A --zone the cloud does not have is not found (exit 3). \
            Tokens from another cloud store (the cloud file was replaced) are dropped and \
            everything is fetched again, with a warning (an epochChanged event with --json).
            """,
        options: [
            OptionSpec("zone", value: "ZONE", help: "Fetch only this zone (repeatable).", repeatable: true,
                       completion: .zoneName),
            OptionSpec("reset", help: "Ignore stored tokens and rebuild the cache."),
            OptionSpec("limit", value: "N", help: "Records per page (default 2000)."),
            OptionSpec("database", value: "SCOPE", help: "private (default) or shared.",
                       completion: .values(["private", "shared"])),
            SharedOwnerOption.option,
        ],
        examples: [Example("cloudsync --device phone fetch-changes", "Bring the phone's cache up to date."),
                   Example("cloudsync fetch-changes --json | jq .", "Changes as NDJSON.")],
        jsonOutput: FetchChangesJSONOutput.fetchChanges,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        var pageSize = 2000
        if let text = arguments.value("limit") {
            guard let n = Int(text), n >= 1, n <= CloudLimits.maxPageSize else {
                throw CLIError.usage("--limit must be a number from 1 to \(CloudLimits.maxPageSize), got '\(text)'")
            }
            pageSize = n
        }
        let scope = try context.databaseScope(arguments)
        guard scope != .public else {
            throw CLIError.usage("the public database does not track changes; use 'cloudsync record query' there")
        }
        let zones = arguments.values("zone")
        for zone in zones { try NameRules.validateZoneName(zone) }
        let session = try context.session()
        let store = try session.deviceStore()
        // Transient failures are retried with backoff, as `store sync` does.
        let fetcher = ChangeFetcher(cloud: session.retryingCloud, store: store, request: try context.databaseRequest(arguments, session: session),
                                   pageSize: pageSize)
        let output = context.output
        let summary = try fetcher.fetch(zones: zones.isEmpty ? nil : zones, reset: arguments.flag("reset")) { event in
            switch event {
            case .recordChanged(let record):
                if output.isJSON {
                    output.ndjson(.object([("event", .string("changed")), ("record", RecordJSON.encode(record))]))
                } else {
                    let head: TerminalText = "changed  \(record.recordID.zoneID.zoneName)/\(record.recordID.recordName) (\(record.recordType)) "
                    output.line("\(head)\(output.fitted(RecordFormatting.fieldSummary(record), after: head.plain.count))")
                }
            case .recordDeleted(let deletion):
                if output.isJSON {
                    output.ndjson(.object([("event", .string("deleted")),
                                           ("record", RecordJSON.encodeDeletion(deletion.recordID, recordType: deletion.recordType))]))
                } else {
                    output.line("deleted  \(deletion.recordID.zoneID.zoneName)/\(deletion.recordID.recordName) (\(deletion.recordType))")
                }
            case .zoneDeleted(let zoneID, let reason, let dropped):
                if output.isJSON {
                    output.ndjson(.object([("event", .string("zoneDeleted")),
                                           ("zone", ZoneJSON.encodeDeletion(zoneID, purged: reason == .purged)),
                                           ("reason", .string(reason.rawValue)), ("droppedRecords", .int(Int64(dropped)))]))
                } else {
                    let how = reason == .purged ? "deleted by the user" : reason == .unshared ? "unshared" : "deleted"
                    output.line("zone \(zoneID.zoneName) was \(how); dropped \(dropped) cached records")
                }
            case .zoneReset(let zoneID, let reason):
                output.warning("zone \(zoneID.zoneName): \(reason); fetching it again from the start")
            case .epochChanged(let zones, let records):
                if output.isJSON {
                    output.ndjson(.object([("event", .string("epochChanged")), ("droppedZones", .int(Int64(zones))),
                                           ("droppedRecords", .int(Int64(records)))]))
                } else {
                    output.warning(.text(SyncVerb.epochChangedMessage))
                }
            case .pageApplied:
                break
            }
        }
        if output.isJSON {
            output.ndjson(.object([("event", .string("summary")), ("changed", .int(Int64(summary.changedRecords))),
                                   ("deleted", .int(Int64(summary.deletedRecords))),
                                   ("zonesFetched", .int(Int64(summary.zonesFetched))),
                                   ("zonesDeleted", .int(Int64(summary.zonesDeleted))),
                                   ("upToDate", .bool(summary.isEmpty))]))
        } else if summary.isEmpty {
            output.line("Already up to date.")
        } else {
            output.info("\(summary.changedRecords) changed, \(summary.deletedRecords) deleted in \(summary.zonesFetched) zone(s)")
        }
    }
}
