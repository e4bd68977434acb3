import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncDevice

/// `--database private|public|shared` of the store commands: which local store they work on.
/// The public store (seed 002) is a file of its own that mirrors the record types of the public
/// database chosen with `store config public-types`; the two never share a record. `shared`
/// goes with `--owner OWNER`: the local store of the zones OWNER shares with this account.
enum StoreDatabase {
    /// The option.
    static let option = OptionSpec("database", value: "SCOPE",
                                   help: "private (default), public (the public store mirrors the public database's types set by 'store config public-types') or shared with --owner OWNER (the store of the zones OWNER shares with you).",
                                   completion: .values(["private", "public", "shared"]))

    /// Whether the invocation works on the public store (64 for `--owner` with it). The shared
    /// database is reached through `--owner OWNER` (the local store of that owner's shared
    /// zones), so `--database shared` needs it.
    static func isPublic(_ context: CommandContext, _ arguments: ParsedArguments) throws -> Bool {
        let owner = arguments.value(ifDeclared: "owner")
        switch try context.databaseScope(arguments) {
        case .private: return false
        case .public:
            guard owner == nil else { throw CLIError.usage("--owner names a shared store; the public store has no owner") }
            return true
        case .shared:
            guard owner != nil else {
                throw CLIError.usage("the local store of shared zones is one per owner: add --owner OWNER")
            }
            return false
        }
    }

    /// The local store the invocation works on: the public store, the store of an owner's shared
    /// zones (`--owner`), or the device's private store.
    static func store(_ context: CommandContext, _ arguments: ParsedArguments) throws -> DeviceStore {
        try isPublic(context, arguments) ? context.publicDeviceStore() : StoreCommand.localStore(context, arguments)
    }

    /// The zone of `--zone`, or the store's default zone: the public database has only
    /// `_defaultZone`, so the public store takes no other (64).
    static func zone(_ context: CommandContext, _ arguments: ParsedArguments) throws -> String {
        guard try isPublic(context, arguments) else { return arguments.value(ifDeclared: "zone") ?? LocalStoreDefaults.zoneName }
        let zone = arguments.value(ifDeclared: "zone") ?? ZoneID.defaultZoneName
        guard zone == ZoneID.defaultZoneName else {
            throw CLIError.usage("the public database has only the zone \(ZoneID.defaultZoneName), not '\(zone)'")
        }
        return zone
    }
}
