import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync record query TYPE`.
enum RecordQueryCommand {
    static let spec = CommandSpec(
        name: "query", abstract: "Query records of a type with a predicate.",
        discussion: """
            The predicate is the NSPredicate subset CloudKit accepts: ==, !=, <, <=, >, >=, \
            BEGINSWITH, IN {…}, CONTAINS (list fields), AND, NOT, TRUEPREDICATE; string, number and \
            date literals; %@ placeholders bound in order from --arg. A page holds --limit records; \
            pass the printed continuation marker back with --continuation, or use --all.
            """,
        options: [
            OptionSpec("where", value: "PREDICATE", help: "Filter (default TRUEPREDICATE)."),
            OptionSpec("arg", value: "VALUE", help: "Value for the next %@ (repeatable).", repeatable: true),
            OptionSpec("sort", value: "[-]FIELD,…", help: "Sort by fields; - for descending."),
            OptionSpec("limit", value: "N", help: "Records per page (default 100)."),
            OptionSpec("continuation", value: "MARKER", help: "Continue after a previous page."),
            OptionSpec("all", help: "Follow continuation markers to the last page."),
            RecordCommand.zoneOption, RecordCommand.databaseOption, SharedOwnerOption.option,
        ],
        arguments: [ArgumentSpec("type", help: "Record type.", completion: .recordType)],
        examples: [Example("cloudsync record query Note --where 'title BEGINSWITH %@' --arg Hel", "Prefix match."),
                   Example("cloudsync record query Note --where 'tags CONTAINS %@' --arg work --sort -modificationDate",
                           "List contains.")],
        jsonOutput: RecordJSONOutput.query,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard let type = arguments.argument("type") else { throw CLIError.usage("a record type is required") }
        let predicate = try PredicateParser.parse(arguments.value("where") ?? "TRUEPREDICATE", arguments: arguments.values("arg"))
        let sort = try arguments.value("sort").map { text throws(CloudError) in try SortDescriptor.parseList(text) } ?? []
        var limit = 100
        if let text = arguments.value("limit") {
            guard let n = Int(text), n >= 1, n <= CloudLimits.maxPageSize else {
                throw CLIError.usage("--limit must be a number from 1 to \(CloudLimits.maxPageSize), got '\(text)'")
            }
            limit = n
        }
        let session = try context.session()
        let request = try context.databaseRequest(arguments, session: session, ownerRequired: true)
        var query = RecordQuery(recordType: type, predicate: predicate, sort: sort,
                                zoneName: arguments.value("zone") ?? ZoneID.defaultZoneName, limit: limit,
                                continuation: arguments.value("continuation"))
        var records: [Record] = []
        var continuation: String?
        let progress = QueryProgress(context.output, following: arguments.flag("all"))
        try NameHints.suggestingZone(query.zoneName, session: session, request: request) {
            repeat {
                let page = try session.cloud.queryRecords(query, in: request)
                records += page.records
                continuation = page.continuation
                query.continuation = continuation
                if continuation != nil { progress.update(records.count) }
            } while arguments.flag("all") && continuation != nil
        }
        progress.finish()
        if context.output.isJSON {
            context.output.json(.object([("records", .array(records.map(RecordJSON.encode))),
                                         ("continuationMarker", continuation.map { .string($0) } ?? .null)]))
            return
        }
        context.output.table(["NAME", "TYPE", "CHANGE TAG", "FIELDS"], records.map {
            [$0.recordID.recordName, $0.recordType, $0.changeTag ?? "", RecordFormatting.fieldSummary($0)]
        }, fitting: 3)
        if records.isEmpty {
            // As psql's "(0 rows)": on a terminal an empty answer says so, and a type the schema
            // does not know is named, with the nearest one (`record query Noet`).
            if context.output.isTTY { context.output.line("(0 records)") }
            if let types = NameHints.recordTypes(session), !types.contains(type) {
                var message = "no record type '\(type)' in the \(context.settings.environment.rawValue) schema of \(context.settings.container)"
                if let hint = Suggestions.didYouMean(type, among: types) { message += "; " + hint }
                context.output.warning(.text(message))
            }
        }
        if let continuation {
            context.output.info("more results: --continuation \(continuation)")
        }
    }
}
