import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice
import Glibc

/// `store export` and `store import`: the local store as NDJSON, one Web Services record
/// dictionary a line (the shape `store get --json` and `record get --json` print).
enum StoreTransfer {
    /// The longest input line `store import` reads: a record of the local store's 50 MB limit in base64.
    static let maximumLineBytes = 72 << 20

    static let export = CommandSpec(
        name: "export", abstract: "Write the local store's records as NDJSON (one record a line).",
        discussion: """
            Each line is a record dictionary as 'store get --json' prints it; 'store import' reads \
            the lines back. Records are written by zone, type and name.
            """,
        options: [
            OptionSpec("zone", value: "ZONE", help: "Only this zone (default: every zone).", completion: .zoneName),
            OptionSpec("type", value: "TYPE", help: "Only records of this type.", completion: .recordType),
            StoreDatabase.option,
        ],
        examples: [Example("cloudsync store export > notes.ndjson", "Save every record to a file."),
                   Example("cloudsync store export --type Note | jq -r .recordName", "List the names of the notes.")],
        jsonOutput: StoreJSONOutput.export,
        run: { context, arguments in
            let store = try StoreDatabase.store(context, arguments)
            let container = StoreCommand.container(context)
            try store.forEachLocalRecord(container: container, type: arguments.value("type"), zone: arguments.value("zone")) {
                let pending = (try? store.isPending(container: container, zone: $0.zoneName, name: $0.recordName)) ?? true
                context.output.ndjson(StoreCommand.json($0, pending: pending))
                return true
            }
        })

    static let `import` = CommandSpec(
        name: "import", abstract: "Read NDJSON records (as 'store export' writes them) into the local store.",
        discussion: """
            Each line is a record dictionary {recordName, recordType, fields, zoneID}; other keys \
            are ignored, and a line without zoneID goes to --zone. An imported record replaces the \
            one of its name (it ends with exactly the fields of its line) and is pending until \
            'store sync'. Lines are read in batches (--batch-size, default 1000); each batch is \
            one transaction and one history transaction. The first bad line stops the import \
            with FILE:LINE: and the reason (exit 65): the batches before it stay imported, \
            nothing of its own batch is.
            """,
        options: [
            StoreCommand.zoneOption,
            OptionSpec("batch-size", value: "N", help: "Records per transaction (default 1000)."),
        ],
        arguments: [ArgumentSpec("file", help: "NDJSON file; - for stdin.", completion: .file)],
        examples: [Example("cloudsync store import notes.ndjson", "Import the records of a file."),
                   Example("cloudsync --device laptop store export | cloudsync --device phone store import -",
                           "Copy one device's store to another.")],
        jsonOutput: StoreJSONOutput.`import`,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard let source = arguments.argument("file") else { throw CLIError.usage("a file (or - for stdin) is required") }
        var batchSize = 1000
        if let text = arguments.value("batch-size") {
            guard let n = Int(text), (1...100_000).contains(n) else {
                throw CLIError.usage("--batch-size must be a number from 1 to 100000, got '\(text)'")
            }
            batchSize = n
        }
        let defaultZone = arguments.value("zone") ?? LocalStoreDefaults.zoneName
        let store = try context.deviceStore()
        let container = StoreCommand.container(context)
        let fd: Int32 = source == "-" ? 0 : open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.badInput("cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        let reader = FileLineReader(fd: fd, maximumLineBytes: maximumLineBytes)
        var batch: [ImportedRecord] = []
        var lines: [Int] = []
        var imported = 0
        var transactions = 0

        func fail(_ line: Int, _ reason: String) -> CLIError {
            .badInput("\(source):\(line): \(reason)" + (imported > 0 ? " (\(imported) records before it were imported)" : ""))
        }
        func flush() throws {
            guard !batch.isEmpty else { return }
            do {
                try store.importRecords(container: container, batch, device: context.settings.device, now: StoreCommand.now())
            } catch {
                throw fail(lines[min(error.index, lines.count - 1)], error.error.reason)
            }
            imported += batch.count
            transactions += 1
            batch.removeAll(keepingCapacity: true)
            lines.removeAll(keepingCapacity: true)
        }
        while let text = reader.nextLine() {
            let number = reader.lineNumber
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            let record: Record
            do {
                let json = try JSONValue.parse(text)
                record = try RecordJSON.decodeRecord(json, defaultZone: ZoneID(zoneName: defaultZone,
                                                                                ownerRecordName: ZoneID.currentUserOwner))
            } catch let error as CloudError {
                throw fail(number, error.reason)
            } catch {
                throw fail(number, "\(error)")
            }
            batch.append(ImportedRecord(zone: record.recordID.zoneID.zoneName, name: record.recordID.recordName,
                                        type: record.recordType, fields: record.fields))
            lines.append(number)
            if batch.count >= batchSize { try flush() }
        }
        if reader.overlong {
            throw fail(reader.lineNumber + 1, "line is longer than \(maximumLineBytes >> 20) MB")
        }
        try flush()
        if context.output.isJSON {
            context.output.json(.object([("imported", .int(Int64(imported))), ("transactions", .int(Int64(transactions)))]))
        } else {
            context.output.line("imported \(imported) records in \(transactions) transactions")
        }
    }
}
