import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice

/// `store history`: the persistent history of local changes.
enum StoreHistory {
    static let spec = CommandSpec(
        name: "history", abstract: "List the transactions of the persistent history.",
        discussion: """
            Every change to the local store is a transaction (id, time, device, author, records, \
            changed keys), recorded whether or not sync is on. Author 'local' is this device's \
            user; 'sync' is a change pulled from the cloud; 'recovery' marks a re-upload.
            """,
        options: [OptionSpec("since", value: "ID", help: "Only transactions after ID."),
                  OptionSpec("limit", value: "N", help: "At most N transactions (default 100)."), StoreDatabase.option],
        examples: [
            Example("cloudsync store history --since 10 --limit 5", "Five transactions after transaction 10."),
        ],
        jsonOutput: StoreJSONOutput.history,
        run: { context, arguments in
            var since: Int64 = 0
            if let text = arguments.value("since") {
                guard let n = Int64(text), n >= 0 else { throw CLIError.usage("--since must be a transaction id, got '\(text)'") }
                since = n
            }
            var limit = 100
            if let text = arguments.value("limit") {
                guard let n = Int(text), n >= 1 else { throw CLIError.usage("--limit must be a positive number, got '\(text)'") }
                limit = n
            }
            let txns = try StoreDatabase.store(context, arguments).history(container: StoreCommand.container(context), since: since, limit: limit)
            if context.output.isJSON {
                for txn in txns {
                    context.output.ndjson(.object([
                        ("transaction", .int(txn.id)), ("time", .int(txn.time)), ("device", .string(txn.device)),
                        ("author", .string(txn.author)),
                        ("changes", .array(txn.changes.map { change in
                            .object([("zoneName", .string(change.zoneName)), ("recordName", .string(change.recordName)),
                                     ("recordType", .string(change.recordType)), ("kind", .string(change.kind.rawValue)),
                                     ("changedKeys", .array(change.changedKeys.map { .string($0) }))])
                        })),
                    ]))
                }
                return
            }
            for txn in txns {
                context.output.line("\(txn.id)  \(ISO8601.format(milliseconds: txn.time))  \(txn.device)  \(txn.author)")
                for change in txn.changes {
                    let keys = change.changedKeys.isEmpty ? "" : " [" + change.changedKeys.joined(separator: ", ") + "]"
                    context.output.line("    \(change.kind.rawValue) \(change.zoneName)/\(change.recordName) (\(change.recordType))\(keys)")
                }
            }
        })
}
