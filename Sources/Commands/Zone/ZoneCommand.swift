import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync zone create|list|delete`: record zones of a database.
public enum ZoneCommand {
    static let databaseOption = OptionSpec("database", value: "SCOPE",
                                           help: "Database: private (default), shared or public.",
                                           completion: .values(["private", "shared", "public"]))

    /// The command table entry.
    public static let spec = CommandSpec(
        name: "zone",
        abstract: "Create, list and delete record zones.",
        discussion: """
            Zones group records. Every database has _defaultZone; custom zones exist only in the \
            private database, track changes (fetch-changes) and, with --atomic, make each modify \
            call all-or-nothing.
            """,
        examples: [Example("cloudsync zone create Notes --atomic", "Create an atomic zone."),
                   Example("cloudsync zone list --json", "List zones as JSON."),
                   Example("cloudsync zone delete Notes --yes", "Delete a zone and its records.")],
        subcommands: [create, list, delete])

    static let create = CommandSpec(
        name: "create", abstract: "Create zones (existing ones are left as they are).",
        options: [OptionSpec("atomic", help: "Make modify calls in the zone all-or-nothing."), databaseOption],
        arguments: [ArgumentSpec("name", help: "Zone name.", repeating: true)],
        examples: [Example("cloudsync zone create Notes", "Create the zone Notes.")],
        jsonOutput: ZoneJSONOutput.create,
        run: { context, arguments in
            let session = try context.session()
            let scope = try context.databaseScope(arguments)
            let specs = arguments.arguments("name").map { ZoneSpec(name: $0, atomic: arguments.flag("atomic")) }
            let zones = try session.cloud.saveZones(specs, in: session.request(scope))
            if context.output.isJSON {
                context.output.json(.object([("zones", .array(zones.map(ZoneJSON.encode)))]))
            } else {
                for zone in zones { context.output.line("zone \(zone.zoneID.zoneName) ready (\(capabilityText(zone)))") }
            }
        })

    static let list = CommandSpec(
        name: "list", abstract: "List the zones of a database.",
        options: [databaseOption],
        examples: [
            Example("cloudsync zone list", "The zones of the private database, with their record counts."),
            Example("cloudsync zone list --database shared --json", "The shared database's zones as JSON."),
        ],
        jsonOutput: ZoneJSONOutput.list,
        run: { context, arguments in
            let session = try context.session()
            let zones = try session.cloud.fetchAllZones(in: session.request(try context.databaseScope(arguments)))
            if context.output.isJSON {
                context.output.json(.object([("zones", .array(zones.map(ZoneJSON.encode)))]))
            } else {
                context.output.table(["ZONE", "RECORDS", "CAPABILITIES"],
                                     zones.map { [$0.zoneID.zoneName, String($0.recordCount), capabilityText($0)] })
            }
        })

    static let delete = CommandSpec(
        name: "delete", abstract: "Delete zones and every record in them.",
        discussion: """
            Deleting a zone removes its records for every device. --purge plays the user who deletes \
            the app's data in iCloud settings: devices then meet userDeletedZone and re-create the zone.
            """,
        options: [OptionSpec("yes", short: "y", help: "Do not ask for confirmation (required without a terminal)."),
                  OptionSpec("purge", help: "Delete as the user would in iCloud settings (userDeletedZone)."),
                  databaseOption],
        arguments: [ArgumentSpec("name", help: "Zone name.", repeating: true, completion: .zoneName)],
        examples: [
            Example("cloudsync zone delete Notes --yes", "Delete the zone Notes and its records."),
            Example("cloudsync zone delete Notes --purge --yes", "Delete it as the user would in iCloud settings."),
        ],
        jsonOutput: ZoneJSONOutput.delete,
        run: { context, arguments in
            let names = arguments.arguments("name")
            if !arguments.flag("yes") {
                guard context.isInteractive else {
                    throw CLIError.usage("deleting zone \(names.joined(separator: ", ")) removes all its records; add --yes to confirm")
                }
                guard Prompt.confirm("Delete zone \(names.joined(separator: ", ")) and all its records? [y/N] ", output: context.output) else {
                    Prompt.declined("kept zone \(names.joined(separator: ", ")) (not deleted)", output: context.output)
                    return
                }
            }
            let session = try context.session()
            let request = session.request(try context.databaseScope(arguments))
            try session.cloud.deleteZones(names, purge: arguments.flag("purge"), in: request)
            if context.output.isJSON {
                context.output.json(.object([("zones", .array(names.map {
                    ZoneJSON.encodeDeletion(request.zoneID($0), purged: arguments.flag("purge"))
                }))]))
            } else {
                for name in names { context.output.line("deleted zone \(name)") }
            }
        })

    static func capabilityText(_ zone: ZoneInfo) -> String {
        let names = zone.capabilities.names
        return names.isEmpty ? "no change tracking" : names.joined(separator: ",").lowercased()
    }

}
