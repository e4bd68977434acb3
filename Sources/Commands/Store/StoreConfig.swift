import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice

/// `store config`: the store's sync settings.
enum StoreConfig {
    static let mergePolicyKey = SyncVerb.mergePolicyKey
    static let forceDataKey = SyncVerb.forceDataKey

    static let spec = CommandSpec(
        name: "config", abstract: "Show or set the store's sync settings.",
        discussion: """
            Keys: merge-policy (fields, server, client, newest), force-data (on: BYTES fields \
            travel inline instead of as assets; a record over 1 MB then fails to sync) and \
            shared-zones (on: store sync also syncs the zones other accounts shared with this one \
            and it accepted, each owner's in a local store of its own that 'store … --owner \
            OWNER' reads and writes). Without a value, shows the setting; without a key, shows all.
            """,
        arguments: [ArgumentSpec("key", help: "merge-policy, force-data or shared-zones.", optional: true,
                                 completion: .values(["merge-policy", "force-data", "shared-zones"])),
                    ArgumentSpec("value", help: "The new value.", optional: true)],
        examples: [Example("cloudsync store config merge-policy server", "Let the cloud win conflicts.")],
        jsonOutput: StoreJSONOutput.config,
        run: { context, arguments in
            let store = try context.deviceStore()
            let container = StoreCommand.container(context)
            let policy = try store.syncState(container: container, mergePolicyKey) ?? MergePolicy.fields.rawValue
            let forceData = try store.syncState(container: container, forceDataKey) ?? "off"
            let sharedZones = try store.syncState(container: container, SyncVerb.sharedZonesKey) ?? "off"
            guard let key = arguments.argument("key") else {
                if context.output.isJSON {
                    context.output.json(.object([("merge-policy", .string(policy)), ("force-data", .string(forceData)),
                                                 ("shared-zones", .string(sharedZones))]))
                } else {
                    context.output.line("merge-policy = \(policy)")
                    context.output.line("force-data = \(forceData)")
                    context.output.line("shared-zones = \(sharedZones)")
                }
                return
            }
            guard ["merge-policy", "force-data", "shared-zones"].contains(key) else {
                throw CLIError.usage("unknown key '\(key)'; use merge-policy, force-data or shared-zones")
            }
            guard let value = arguments.argument("value") else {
                context.output.line(.value(key == "merge-policy" ? policy : key == "force-data" ? forceData : sharedZones))
                return
            }
            switch key {
            case "merge-policy":
                guard let parsed = MergePolicy(rawValue: value.lowercased()) else {
                    throw CLIError.usage("unknown merge policy '\(value)'; use fields, server, client or newest")
                }
                try store.setSyncState(container: container, mergePolicyKey, parsed.rawValue)
            default:
                guard value == "on" || value == "off" else { throw CLIError.usage("\(key) is on or off, got '\(value)'") }
                try store.setSyncState(container: container, key == "force-data" ? forceDataKey : SyncVerb.sharedZonesKey, value)
            }
            if !context.output.isJSON { context.output.line("\(key) = \(value.lowercased())") }
        })
}
