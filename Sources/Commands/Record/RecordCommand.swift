import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync record save|get|delete|query`: cloud-direct record operations in the spirit of
/// Apple's cktool (`create-record`, `query-records`, `delete-record`).
public enum RecordCommand {
    static let zoneOption = OptionSpec("zone", value: "ZONE", help: "Zone (default _defaultZone).", completion: .zoneName)
    static let databaseOption = OptionSpec("database", value: "SCOPE", help: "Database: private (default), shared or public.",
                                           completion: .values(["private", "shared", "public"]))

    /// The command table entry.
    public static let spec = CommandSpec(
        name: "record",
        abstract: "Save, fetch, delete and query records in the cloud.",
        discussion: """
            These commands talk to the cloud directly, as cktool does. Fields are given as \
            name=value (a STRING) or name:TYPE=value with TYPE one of STRING, INT64, DOUBLE, \
            TIMESTAMP, BYTES, REFERENCE, LOCATION, ASSETID or <TYPE>_LIST; or as a JSON object \
            {name: {value, type}} with --fields-json.
            """,
        examples: [
            Example("cloudsync record save Note n1 --zone Notes --field title=Hello --field count:INT64=3", "Create a record."),
            Example("cloudsync record query Note --zone Notes --where 'count > %@' --arg 2 --sort -count", "Query."),
        ],
        subcommands: [RecordSave.spec, get, delete, RecordQueryCommand.spec])

    static let get = CommandSpec(
        name: "get", abstract: "Fetch records by name.",
        options: [zoneOption, databaseOption, SharedOwnerOption.option, AssetFiles.option],
        arguments: [ArgumentSpec("name", help: "Record name.", repeating: true, completion: .recordName)],
        examples: [
            Example("cloudsync record get n1 n2 --zone Notes", "Fetch two records of the zone Notes."),
            Example("cloudsync record get photo1 --zone Photos --asset-dir photos --json", "Fetch a record as JSON and write its assets into photos/."),
        ],
        jsonOutput: RecordJSONOutput.get,
        run: { context, arguments in
            let session = try context.session()
            let request = try context.databaseRequest(arguments, session: session, ownerRequired: true)
            let zone = request.zoneID(arguments.value("zone") ?? ZoneID.defaultZoneName)
            let ids = arguments.arguments("name").map { RecordID(recordName: $0, zoneID: zone) }
            let results = try session.cloud.fetchRecords(ids, in: request)
            var firstError: CloudError?
            var found: [JSONValue] = []
            for id in ids {
                switch results[id] {
                case .success(let record)?:
                    if let directory = arguments.value("asset-dir") {
                        let files = try AssetFiles.write(record.fields, to: directory) { reference in
                            try session.cloud.fetchAsset(reference, of: record.recordID, in: request)
                        }
                        for file in files { context.output.info("\(record.recordID.recordName).\(file.field): \(file.path)") }
                    }
                    if context.output.isJSON {
                        found.append(RecordJSON.encode(record))
                    } else {
                        if found.count > 0 || firstError != nil { context.output.line("") }
                        RecordFormatting.block(record).forEach(context.output.line)
                        found.append(.null)
                    }
                case .failure(let error)?:
                    if firstError == nil { firstError = error }
                    if context.output.isJSON {
                        // Apple's lookup reply: a failed record is an error dictionary in `records`.
                        found.append(.object([("recordName", .string(id.recordName)), ("reason", .string(error.reason)),
                                              ("serverErrorCode", .string(error.code.serverErrorCode))]))
                    } else if ids.count > 1 {
                        context.output.warning("\(error.reason)")
                    }
                case nil:
                    break
                }
            }
            if context.output.isJSON {
                context.output.json(.object([("records", .array(found))]))
            }
            if let firstError { throw firstError }
        })

    static let delete = CommandSpec(
        name: "delete", abstract: "Delete records (records that reference them with DELETE_SELF go too).",
        options: [zoneOption, databaseOption, SharedOwnerOption.option],
        arguments: [ArgumentSpec("name", help: "Record name.", repeating: true, completion: .recordName)],
        examples: [
            Example("cloudsync record delete n1 --zone Notes", "Delete the record n1 of the zone Notes."),
        ],
        jsonOutput: RecordJSONOutput.delete,
        run: { context, arguments in
            let session = try context.session()
            let request = try context.databaseRequest(arguments, session: session, writing: true, ownerRequired: true)
            let zone = request.zoneID(arguments.value("zone") ?? ZoneID.defaultZoneName)
            let ids = arguments.arguments("name").map { RecordID(recordName: $0, zoneID: zone) }
            guard ids.count <= CloudLimits.maxRecordsPerModify else {
                throw CloudError(.limitExceeded, "delete at most \(CloudLimits.maxRecordsPerModify) records at once")
            }
            let result = try session.cloud.modifyRecords(ModifyRequest(deletes: ids), in: request)
            if context.output.isJSON {
                context.output.json(.object([("records", .array(result.deleted.map { RecordJSON.encodeDeletion($0) }))]))
            } else {
                for id in result.deleted { context.output.line("deleted \(id.recordName)") }
            }
            if let failure = result.partialFailure { throw failure }
        })
}
