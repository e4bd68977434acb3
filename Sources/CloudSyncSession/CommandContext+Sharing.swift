import CloudSyncCLI
import CloudSyncService
import CloudSyncCore

/// `--owner OWNER` (issue 18): participants address a shared zone in the shared database by
/// its owner, an account login or a userRecordName (`_` and 32 hex digits).
public enum SharedOwnerOption {
    /// The option, for `record get|save|delete|query`, `fetch-changes` and `share leave`.
    public static let option = OptionSpec("owner", value: "OWNER",
                                          help: "With --database shared: the account (login or userRecordName) that shared the zone.")
}

extension CloudSession {
    /// The cloud's sharing calls; a cloud without them is unavailable (69).
    public func sharing() throws -> any SharingService {
        guard let service = capabilities.sharing else {
            throw CLIError.unavailable("this cloud does not offer sharing")
        }
        return service
    }

    /// The userRecordName of an owner given as a login or a userRecordName; a login that shares
    /// nothing with this account (or does not exist: the cloud does not say which) is not found
    /// (3), or for a write (`writing`) permission denied (77), as the zone of a non-participant.
    public func userRecordName(ofOwner owner: String, writing: Bool = false) throws -> String {
        let bytes = Array(owner.utf8)
        if bytes.count == 33, bytes[0] == UInt8(ascii: "_"), owner.dropFirst().allSatisfy(\.isHexDigit) { return owner }
        guard let name = try sharing().userRecordName(ofAccount: owner, in: request(.shared)) else {
            if writing {
                throw CloudError(.permissionFailure, "no account \(NameRules.quoted(owner)) shares a zone with you; you cannot write to it")
            }
            throw CloudError(.unknownItem, "no account \(NameRules.quoted(owner)) shares a zone with you")
        }
        return name
    }
}

extension CommandContext {
    /// The request of `--database` (default `scope`) and, in the shared database, `--owner`
    /// (`writing`: for a command that writes, an owner who shares nothing with you is 77).
    /// `ownerRequired`: the command addresses one shared zone (records), so the shared database
    /// without `--owner` is a usage error (64), as every missing option is.
    public func databaseRequest(_ arguments: ParsedArguments, session: CloudSession,
                                default scope: DatabaseScope = .private, writing: Bool = false,
                                ownerRequired: Bool = false) throws -> DatabaseRequest {
        let scope = try databaseScope(arguments, default: scope)
        let request = session.request(scope)
        guard let owner = arguments.value(ifDeclared: "owner") else {
            if ownerRequired && scope == .shared {
                throw CLIError.usage("the shared database holds the zones other accounts share with you: name the zone's owner with --owner OWNER")
            }
            return request
        }
        guard scope == .shared else {
            throw CLIError.usage("--owner names who shared a zone in the shared database; add --database shared")
        }
        return request.owned(by: try session.userRecordName(ofOwner: owner, writing: writing))
    }
}
