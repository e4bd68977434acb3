import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice

/// `store get` and `store query`: reads of the local store (offline).
enum StoreRead {
    static let get = CommandSpec(
        name: "get", abstract: "Show records of the local store.",
        options: [StoreCommand.zoneOption, AssetFiles.option, StoreDatabase.option, StoreCommand.ownerOption],
        arguments: [ArgumentSpec("name", help: "Record name.", repeating: true, completion: .recordName)],
        examples: [
            Example("cloudsync store get milk", "Show the record milk of the local store."),
            Example("cloudsync store get milk --json", "The same as Apple's record dictionary."),
        ],
        jsonOutput: StoreJSONOutput.get,
        run: { context, arguments in
            let zone = try StoreDatabase.zone(context, arguments)
            let store = try StoreDatabase.store(context, arguments)
            let container = StoreCommand.container(context)
            var found: [JSONValue] = []
            var missing: [String] = []
            for name in arguments.arguments("name") {
                guard let record = try store.localRecord(container: container, zone: zone, name: name) else {
                    missing.append(name)
                    continue
                }
                try StoreCommand.requireReadable(record.fields, record: name, arguments)
                let pending = try store.isPending(container: container, zone: zone, name: name)
                if let directory = arguments.value("asset-dir") {
                    // The local store keeps asset contents as BYTES (sync turns them into assets).
                    let files = try AssetFiles.write(record.fields, to: directory) { reference in
                        throw CloudError(.assetFileNotFound, "asset \(reference.checksum.prefix(12))… is not on this device")
                    }
                    for file in files { context.output.info("\(name).\(file.field): \(file.path)") }
                }
                if context.output.isJSON {
                    found.append(StoreCommand.json(record, pending: pending))
                } else {
                    if !found.isEmpty { context.output.line("") }
                    RecordFormatting.block(StoreCommand.asRecord(record)).forEach(context.output.line)
                    context.output.line(pending ? "state:      pending (not yet in the cloud)" : "state:      in sync")
                    found.append(.null)
                }
            }
            if context.output.isJSON, !found.isEmpty {
                context.output.json(.object([("records", .array(found))]))
            }
            if !missing.isEmpty {
                throw CLIError.notFound("no record \(missing.joined(separator: ", ")) in zone \(zone) of the \(try StoreDatabase.isPublic(context, arguments) ? "public" : "local") store")
            }
        })

    static let query = CommandSpec(
        name: "query", abstract: "Query the local store with a predicate (offline).",
        options: [
            OptionSpec("where", value: "PREDICATE", help: "Filter (default TRUEPREDICATE)."),
            OptionSpec("arg", value: "VALUE", help: "Value for the next %@ (repeatable).", repeatable: true),
            OptionSpec("sort", value: "[-]FIELD,…", help: "Sort by fields; - for descending."),
            OptionSpec("limit", value: "N", help: "At most N records."),
            OptionSpec("zone", value: "ZONE", help: "Only this zone (default: every zone).", completion: .zoneName),
            StoreDatabase.option,
            StoreCommand.ownerOption,
        ],
        arguments: [ArgumentSpec("type", help: "Record type.", completion: .recordType)],
        examples: [
            Example("cloudsync store query Todo --where 'done == 0' --sort title", "The open todos, by title."),
            Example("cloudsync store query Todo --where 'title BEGINSWITH %@' --arg Buy --limit 10", "At most ten todos whose title starts with Buy."),
        ],
        jsonOutput: StoreJSONOutput.query,
        run: { context, arguments in
            guard let type = arguments.argument("type") else { throw CLIError.usage("a record type is required") }
            let predicate = try PredicateParser.parse(arguments.value("where") ?? "TRUEPREDICATE", arguments: arguments.values("arg"))
            let sort = try arguments.value("sort").map { text throws(CloudError) in try SortDescriptor.parseList(text) } ?? []
            var limit = Int.max
            if let text = arguments.value("limit") {
                guard let n = Int(text), n >= 1 else { throw CLIError.usage("--limit must be a positive number, got '\(text)'") }
                limit = n
            }
            let store = try StoreDatabase.store(context, arguments)
            // Streamed: only the matches are held; without a sort, reading stops at the limit.
            var matches: [Record] = []
            // SQLite skips what the predicate's simple conditions rule out; the predicate decides.
            try store.forEachLocalRecord(container: StoreCommand.container(context), type: type, zone: arguments.value("zone"),
                                         prefilter: LocalQueryPrefilter(predicate)) {
                let record = StoreCommand.asRecord($0)
                if predicate.evaluate(record) { matches.append(record) }
                return !sort.isEmpty || matches.count < limit
            }
            let sorted = Array(sort.apply(to: matches).prefix(limit))
            for record in sorted { try StoreCommand.requireReadable(record.fields, record: record.recordID.recordName, arguments) }
            if context.output.isJSON {
                let container = StoreCommand.container(context)
                var records: [JSONValue] = []
                for record in sorted {
                    let local = LocalRecord(zoneName: record.recordID.zoneID.zoneName, recordName: record.recordID.recordName,
                                            recordType: record.recordType, fields: record.fields, modified: 0)
                    let pending = try store.isPending(container: container, zone: local.zoneName, name: local.recordName)
                    records.append(StoreCommand.json(local, pending: pending))
                }
                context.output.json(.object([("records", .array(records))]))
            } else {
                context.output.table(["NAME", "ZONE", "FIELDS"], sorted.map {
                    [$0.recordID.recordName, $0.recordID.zoneID.zoneName, RecordFormatting.fieldSummary($0)]
                }, fitting: 2)
            }
        })
}
