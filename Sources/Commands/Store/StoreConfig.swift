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
            Keys: merge-policy (fields, server, client, newest) and force-data (on: BYTES fields \
            travel inline instead of as assets; a record over 1 MB then fails to sync), both for \
            the private and the public store; shared-zones (on: store sync also syncs the zones \
            other accounts shared with this one and it accepted, each owner's in a local store of \
            its own that 'store … --owner OWNER' reads and writes); public-types (the record types of the public \
            database that 'store sync --database public' mirrors into this device's public \
            store; 'none' clears the list) and public-scan-interval (seconds between full scans \
            of a public type, which find records deleted upstream; default 3600, 0 scans on every \
            sync). Without a value, shows the setting; without a key, shows all.
            """,
        arguments: [ArgumentSpec("key", help: "merge-policy, force-data, shared-zones, public-types or public-scan-interval.",
                                 optional: true,
                                 completion: .values(["merge-policy", "force-data", "shared-zones", "public-types",
                                                      "public-scan-interval"])),
                    ArgumentSpec("value", help: "The new value (public-types: one or more record types).", optional: true,
                                 repeating: true)],
        examples: [Example("cloudsync store config merge-policy server", "Let the cloud win conflicts.")],
        jsonOutput: StoreJSONOutput.config,
        run: { context, arguments in
            let store = try context.deviceStore()
            let container = StoreCommand.container(context)
            let settings = try current(store, container)
            guard let key = arguments.argument("key") else {
                if context.output.isJSON {
                    context.output.json(.object(settings.map { name, value in
                        (name, name == "public-types" ? .array(value.split(separator: " ").map { .string(String($0)) })
                                                      : .string(value))
                    }))
                } else {
                    for (name, value) in settings { context.output.line("\(name) = \(value)") }
                }
                return
            }
            guard let known = settings.first(where: { $0.0 == key }) else {
                throw CLIError.usage("unknown store setting '\(key)'; use merge-policy, force-data, shared-zones, public-types or public-scan-interval")
            }
            let values = arguments.arguments("value")
            guard let value = values.first else {
                context.output.line(.value(known.1))
                return
            }
            if key != "public-types", values.count > 1 { throw CLIError.usage("\(key) takes one value") }
            var shown = value.lowercased()
            switch key {
            case "merge-policy":
                guard let parsed = MergePolicy(rawValue: value.lowercased()) else {
                    throw CLIError.usage("unknown merge policy '\(value)'; use fields, server, client or newest")
                }
                try store.setSyncState(container: container, mergePolicyKey, parsed.rawValue)
            case "force-data", "shared-zones":
                guard value == "on" || value == "off" else { throw CLIError.usage("\(key) is on or off, got '\(value)'") }
                try store.setSyncState(container: container, key == "force-data" ? forceDataKey : SyncVerb.sharedZonesKey, value)
            case "public-types":
                let types = values == ["none"] ? [] : values
                for type in types { try NameRules.validateIdentifier(type, kind: "record type") }
                try store.setZoneList(types, container: container, PublicStoreSettings.typesKey)
                shown = types.isEmpty ? "none" : Set(types).sorted().joined(separator: " ")
            default:
                guard let seconds = Int64(value), seconds >= 0, seconds <= 100 * 365 * 86_400 else {
                    throw CLIError.usage("public-scan-interval is a number of seconds (0 or more), got '\(value)'")
                }
                try store.setSyncState(container: container, PublicStoreSettings.scanIntervalKey, String(seconds))
                shown = String(seconds)
            }
            if !context.output.isJSON { context.output.line("\(key) = \(shown)") }
        })

    /// Every setting with its current value, in the order `store config` lists them.
    static func current(_ store: DeviceStore, _ container: String) throws -> [(String, String)] {
        let types = try PublicStoreSettings.types(store, container)
        return [
            ("merge-policy", try store.syncState(container: container, mergePolicyKey) ?? MergePolicy.fields.rawValue),
            ("force-data", try store.syncState(container: container, forceDataKey) ?? "off"),
            ("shared-zones", try store.syncState(container: container, SyncVerb.sharedZonesKey) ?? "off"),
            ("public-types", types.isEmpty ? "none" : types.joined(separator: " ")),
            ("public-scan-interval", String(try PublicStoreSettings.scanInterval(store, container) / 1000)),
        ]
    }
}

/// The public store's settings, kept with the device's other sync settings in its private
/// store file (they say what to mirror; the mirrored data lives in the public store).
enum PublicStoreSettings {
    /// The sync-state key of the mirrored types, one per line.
    static let typesKey = "public_types"
    /// The sync-state key of the seconds between full scans.
    static let scanIntervalKey = "public_scan_interval_s"

    static func types(_ store: DeviceStore, _ container: String) throws -> [String] {
        try store.zoneList(container: container, typesKey)
    }

    /// Milliseconds between full scans of a type.
    static func scanInterval(_ store: DeviceStore, _ container: String) throws -> Int64 {
        (try store.syncState(container: container, scanIntervalKey).flatMap { Int64($0) }).map { $0 * 1000 }
            ?? PublicMirror.defaultScanInterval
    }
}
