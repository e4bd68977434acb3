import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice

/// `--database private|public` of the store commands: which local store they work on. The
/// public store (seed 002) is a file of its own that mirrors the record types of the public
/// database chosen with `store config public-types`; the two never share a record.
enum StoreDatabase {
    /// The option.
    static let option = OptionSpec("database", value: "DATABASE",
                                   help: "private (default) or public: the public store mirrors the public database's types set by 'store config public-types'.",
                                   completion: .values(["private", "public"]))

    /// Whether the invocation works on the public store (64 for shared or anything else).
    static func isPublic(_ context: CommandContext, _ arguments: ParsedArguments) throws -> Bool {
        switch try context.databaseScope(arguments) {
        case .private: return false
        case .public: return true
        case .shared: throw CLIError.usage("the local store mirrors the private or the public database, not the shared one")
        }
    }

    /// The local store the invocation works on.
    static func store(_ context: CommandContext, _ arguments: ParsedArguments) throws -> DeviceStore {
        try isPublic(context, arguments) ? context.publicDeviceStore() : context.deviceStore()
    }

    /// The zone of `--zone`, or the store's default zone: the public database has only
    /// `_defaultZone`, so the public store takes no other (64).
    static func zone(_ context: CommandContext, _ arguments: ParsedArguments) throws -> String {
        guard try isPublic(context, arguments) else { return arguments.value("zone") ?? LocalStoreDefaults.zoneName }
        let zone = arguments.value("zone") ?? ZoneID.defaultZoneName
        guard zone == ZoneID.defaultZoneName else {
            throw CLIError.usage("the public database has only the zone \(ZoneID.defaultZoneName), not '\(zone)'")
        }
        return zone
    }
}
