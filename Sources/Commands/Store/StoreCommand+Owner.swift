import CloudSyncCLI
import CloudSyncSession
import CloudSyncDevice

/// `--owner OWNER` on the local-store commands (issue 18): the local store of the zones OWNER
/// shared with this account, which `store sync` fills once `store config shared-zones on`.
extension StoreCommand {
    static let ownerOption = OptionSpec("owner", value: "OWNER",
                                        help: "The local store of the zones OWNER (a login) shared with this account.")

    /// The device's own local store, or with `--owner` the one of that owner's shared zones.
    static func localStore(_ context: CommandContext, _ arguments: ParsedArguments) throws -> DeviceStore {
        guard let owner = arguments.value("owner") else { return try context.deviceStore() }
        guard !owner.isEmpty, owner != context.settings.account else {
            throw CLIError.usage("--owner names another account whose shared zones this device syncs")
        }
        return try SyncVerb.sharedStore(context, owner: owner)
    }
}
