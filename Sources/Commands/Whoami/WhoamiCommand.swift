import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync whoami`: who and where this invocation acts as, as `gh auth status` tells it.
public enum WhoamiCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "whoami",
        abstract: "Show the account, device, container and cloud this command line acts as.",
        discussion: """
            Prints the account (and where it came from: --account, CLOUDSYNC_ACCOUNT, the config \
            file, the token of a server, or the default) and its user record name (from the cloud; empty with a note when \
            the cloud cannot be reached), the device, the container, the environment, the cloud \
            (a server's password masked) and whether sync is on for the account on this device, \
            with the account's display name and whether others find it by its login.

            --set-name and --discoverable change those two in the cloud, for every device of the \
            account. A display name shows with your messages and keys (`message inbox` of your \
            correspondents, `keys show`). An account that is not discoverable is found only by \
            its userRecordName (`keys show _…`, `message send _…`), never by its login.
            """,
        options: WhoamiProfile.options,
        examples: [Example("cloudsync whoami", "Show who and where."),
                   Example("cloudsync whoami --set-name 'Bob Builder'", "Set the name others see with your messages."),
                   Example("cloudsync whoami --discoverable off", "Be found only by your userRecordName."),
                   Example("cloudsync --account bob whoami --json", "The same as JSON, for another account.")],
        jsonOutput: WhoamiJSONOutput.whoami,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let settings = context.settings
        let cloud = try CloudLocator(parsing: settings.cloudURL).displayURL
        var userRecordName: String?
        var unreachable: String?
        var profile: DirectoryUser?
        if let update = try WhoamiProfile.update(arguments) {
            profile = try WhoamiProfile.apply(update, session: try context.session())
        }
        do {
            let session = try context.session()
            userRecordName = session.account.userRecordName
            profile = profile ?? WhoamiProfile.identity(session)
        } catch let error as CloudError {
            unreachable = error.reason
        }
        // Read only: a device store that does not exist yet is not made (sync is then off).
        var syncOn = false
        if access(settings.deviceStorePath, F_OK) == 0 {
            syncOn = try SyncToggle.isOn(store: try context.deviceStore(), container: settings.container)
        }
        if context.output.isJSON {
            context.output.json(.object([
                ("account", .string(settings.account)),
                ("accountSource", .string(accountSource(settings))),
                ("userRecordName", userRecordName.map(JSONValue.string) ?? .null),
                ("device", .string(settings.device)),
                ("container", .string(settings.container)),
                ("environment", .string(settings.environment.rawValue)),
                ("cloud", .string(cloud)),
                ("syncEnabled", .bool(syncOn)),
                ("displayName", profile?.displayName.map(JSONValue.string) ?? .null),
                ("discoverable", profile?.discoverable.map(JSONValue.bool) ?? .null),
            ]))
            return
        }
        context.output.line("account:     \(settings.account) (from \(accountSource(settings)))")
        if let userRecordName {
            context.output.line("user record: \(userRecordName)")
        } else {
            context.output.line("user record: (unknown: \(unreachable ?? "the cloud cannot be reached"))")
        }
        if let profile {
            context.output.line("name:        \(profile.displayName ?? "(none; set one with --set-name)")")
            context.output.line("discoverable: \(.text(profile.discoverable == false ? "off (found only by user record)" : "on"))")
        }
        context.output.line("device:      \(settings.device)")
        context.output.line("container:   \(settings.container)")
        context.output.line("environment: \(settings.environment.rawValue)")
        context.output.line("cloud:       \(cloud)")
        context.output.line("sync:        \(.text(syncOn ? "on" : "off"))")
    }

    /// Where the account came from, in words.
    static func accountSource(_ settings: Settings) -> String {
        settings.accountSource ?? "the default"
    }
}
