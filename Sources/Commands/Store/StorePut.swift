import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncDevice

/// `store put` and `store delete`: local writes, recorded in history and marked pending.
enum StorePut {
    static let spec = CommandSpec(
        name: "put", abstract: "Create or update a record in the local store (offline).",
        discussion: """
            Sets the given fields (name=value or name:TYPE=value, as 'record save') and keeps the \
            others; --unset removes fields. A field keeps its type; a record keeps its type. A \
            zone this device does not know (no record in it here, not made by this device, not \
            fetched with fetch-changes) is refused, since a typo would reach the cloud at the \
            next sync, unless it is the store's default zone or --create-zone is given.
            """,
        options: [
            FieldOptions.option(help: "A field to set (repeatable)."),
            OptionSpec("unset", value: "NAME", help: "A field to remove (repeatable).", repeatable: true),
            OptionSpec("encrypt", value: "NAME", help: "Encrypt this field of the type on the device before it syncs (repeatable).",
                       repeatable: true),
            StoreCommand.zoneOption, StoreCommand.ownerOption,
            OptionSpec("create-zone", help: "Allow a zone this device does not know yet (it is made in the cloud at the next sync)."),
            StoreDatabase.option,
        ],
        arguments: [ArgumentSpec("type", help: "Record type.", completion: .recordType),
                    ArgumentSpec("name", help: "Record name (default: a new random name).", optional: true,
                                 completion: .recordName)],
        examples: [Example("cloudsync store put Note n1 --field title=Hi --field n:INT64=2", "Create or update n1.")],
        jsonOutput: StoreJSONOutput.put,
        run: { context, arguments in
            guard let type = arguments.argument("type") else { throw CLIError.usage("a record type is required") }
            let zone = try StoreDatabase.zone(context, arguments)
            let name = arguments.argument("name") ?? randomName()
            var fields: [String: FieldValue] = [:]
            let placeholder = ZoneID(zoneName: zone, ownerRecordName: ZoneID.currentUserOwner)
            // An ASSETID read from a file is kept as BYTES: sync sends every BYTES field as an asset.
            for field in try FieldOptions.parse(arguments, defaultZone: placeholder) { fields[field.name] = field.value }
            if try StoreDatabase.isPublic(context, arguments), !arguments.values("encrypt").isEmpty {
                throw CLIError.usage("--encrypt works in the private store only: public records are readable by every account")
            }
            let store = try StoreDatabase.store(context, arguments)
            try StoreNameHints.requireKnown(zone, store: store, context: context, allowNew: arguments.flag("create-zone"))
            for warning in try StoreNameHints.warnings(type: type, fields: Array(fields.keys).sorted(), store: store, context: context) {
                context.output.warning(.text(warning))
            }
            for field in arguments.values("encrypt") { try NameRules.validateIdentifier(field, kind: "field name") }
            try EncryptionMarks.add(Set(arguments.values("encrypt")), recordType: type, store: store,
                                    container: StoreCommand.container(context))
            let (record, txn) = try store.put(container: StoreCommand.container(context), zone: zone, name: name, type: type,
                                              fields: fields, unset: arguments.values("unset"),
                                              device: context.settings.device, now: StoreCommand.now())
            if context.output.isJSON {
                var json = StoreCommand.json(record, pending: true)
                if case .object(var pairs) = json { pairs.append(("transaction", .int(txn.id))); json = .object(pairs) }
                context.output.json(json)
            } else {
                context.output.line("\(txn.changes.first?.kind == .insert ? "created" : "updated") \(name) (\(type)) in \(zone), transaction \(txn.id)")
            }
        })

    static let delete = CommandSpec(
        name: "delete", abstract: "Delete a record from the local store (offline).",
        options: [StoreCommand.zoneOption, StoreDatabase.option, StoreCommand.ownerOption],
        arguments: [ArgumentSpec("name", help: "Record name.", repeating: true, completion: .recordName)],
        examples: [
            Example("cloudsync store delete milk", "Delete milk here; the next sync deletes it in the cloud."),
        ],
        jsonOutput: StoreJSONOutput.delete,
        run: { context, arguments in
            let zone = try StoreDatabase.zone(context, arguments)
            let store = try StoreDatabase.store(context, arguments)
            var missing: [String] = []
            var deleted: [JSONValue] = []
            for name in arguments.arguments("name") {
                if let txn = try store.deleteLocal(container: StoreCommand.container(context), zone: zone, name: name,
                                                   device: context.settings.device, now: StoreCommand.now()) {
                    deleted.append(.object([("recordName", .string(name)), ("deleted", .bool(true)),
                                            ("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: zone, ownerRecordName: ZoneID.currentUserOwner))),
                                            ("pending", .bool(true)), ("transaction", .int(txn.id))]))
                    if !context.output.isJSON { context.output.line("deleted \(name), transaction \(txn.id)") }
                } else {
                    missing.append(name)
                }
            }
            if context.output.isJSON { context.output.json(.object([("records", .array(deleted))])) }
            if !missing.isEmpty {
                throw CLIError.notFound("no record \(missing.joined(separator: ", ")) in zone \(zone) of the \(try StoreDatabase.isPublic(context, arguments) ? "public" : "local") store")
            }
        })

    static func randomName() -> String {
        var rng = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(UInt8.random(in: 0...255, using: &rng), radix: 16) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined().uppercased()
    }
}
