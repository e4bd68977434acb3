import CloudSyncCLI
import CloudSyncCore
import CloudSyncSession
import CloudSyncDevice

/// `--owner OWNER` on the local-store commands (issue 18): the local store of the zones OWNER
/// shared with this account, which `store sync` fills once `store config shared-zones on`.
extension StoreCommand {
    static let ownerOption = OptionSpec("owner", value: "OWNER",
                                        help: "The local store of the zones OWNER (a login) shared with this account.")

    /// The device's own local store, or with `--owner` the one of that owner's shared zones.
    static func localStore(_ context: CommandContext, _ arguments: ParsedArguments) throws -> DeviceStore {
        guard let owner = arguments.value(ifDeclared: "owner") else { return try context.deviceStore() }
        guard !owner.isEmpty, owner != context.settings.account else {
            throw CLIError.usage("--owner names another account whose shared zones this device syncs")
        }
        return try SyncVerb.sharedStore(context, owner: owner)
    }

    /// Encrypted fields are not supported in shared zones: they are sealed with the owner's data
    /// key, which is not shared with participants. A record of `--owner`'s store holding one is
    /// refused with one line (77) rather than shown as ciphertext.
    static func requireReadable(_ fields: [String: FieldValue], record: String, _ arguments: ParsedArguments) throws {
        guard let owner = arguments.value(ifDeclared: "owner") else { return }
        for name in fields.keys.sorted() {
            guard case .encryptedBytes = fields[name] else { continue }
            throw CloudError(.permissionFailure, """
                field '\(name)' of '\(record)' is encrypted with \(owner)'s data key, which is not shared with participants \
                (encrypted fields are not supported in shared zones)
                """)
        }
    }
}
