import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `whoami --set-name` and `whoami --discoverable` (issue 26): the account's display name and
/// whether others find it by its login, kept in the cloud's user directory, per account.
enum WhoamiProfile {
    static let options = [
        OptionSpec("set-name", value: "NAME",
                   help: "Set the account's display name, shown to others with your messages and keys (\"\" clears it)."),
        OptionSpec("discoverable", value: "on|off",
                   help: "Whether other accounts find this one by its login (off: only by its userRecordName).",
                   completion: .values(["on", "off"])),
    ]

    /// The change the options ask for, nil when they ask for none.
    static func update(_ arguments: ParsedArguments) throws -> UserProfileUpdate? {
        var update: UserProfileUpdate?
        if let name = arguments.value("set-name") { update = UserProfileUpdate.name(name) }
        if let text = arguments.value("discoverable") {
            let value: Bool
            switch text.lowercased() {
            case "on", "yes", "true": value = true
            case "off", "no", "false": value = false
            default: throw CLIError.usage("--discoverable takes on or off, not '\(text)'")
            }
            update = update ?? UserProfileUpdate()
            update?.discoverable = value
        }
        return update
    }

    /// Applies `update` as the session's account; when discoverability changes, the login in
    /// the account's published identity record (`UserIdentity`, if any) follows it, so that a
    /// hidden account's login is not left readable in the public database.
    static func apply(_ update: UserProfileUpdate, session: CloudSession) throws -> DirectoryUser {
        let users = try session.users()
        let request = session.request(.public)
        let user = try users.updateCallerProfile(update, in: request)
        if let discoverable = update.discoverable { try syncPublishedLogin(discoverable, session: session) }
        return user
    }

    static func syncPublishedLogin(_ discoverable: Bool, session: CloudSession) throws {
        let request = session.request(.public)
        let id = RecordID(recordName: session.account.userRecordName, zoneID: request.zoneID(ZoneID.defaultZoneName))
        guard case .success(var record)? = try session.cloud.fetchRecords([id], in: request)[id],
              record.recordType == "UserIdentity" else { return }
        let wanted: FieldValue? = discoverable ? .string(session.account.name) : nil
        guard record.fields["account"] != wanted else { return }
        record.fields["account"] = wanted
        let result = try session.cloud.modifyRecords(ModifyRequest(saves: [record]), in: request)
        if let error = result.partialFailure { throw error }
    }

    /// The caller as the directory shows it, nil (with why) when the cloud cannot say.
    static func identity(_ session: CloudSession?) -> DirectoryUser? {
        guard let session, let users = try? session.users() else { return nil }
        return try? users.callerIdentity(in: session.request(.public))
    }
}
