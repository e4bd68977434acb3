import CloudSyncCLI
import CloudSyncCloud
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// When a command may make a new embedded cloud (a SQLite file), so that a typo in a cloud path
/// never makes a new, empty cloud silently (issue 30):
///
/// - The default cloud (`<home>/cloud.sqlite`, no `--cloud`, `CLOUDSYNC_CLOUD` or config
///   `cloud`, or one naming that same file) is made on first use by a command that writes.
/// - A cloud named explicitly must exist, except for the commands that create one:
///   `cloud create`, `serve` and `token create` (a server's first token). Otherwise: not found (3),
///   naming the file and where the URL came from.
/// - A read-only command (`whoami`, `zone list`, `record query`, …) never makes a home folder
///   that does not exist, and `whoami` never makes a cloud: not found (3; `whoami` says so and
///   goes on). (Other read-only commands still make the default cloud in an existing home: the
///   first `zone list` of an account also registers it.)
public enum CloudCreation {
    /// The commands that only read the cloud.
    public static let readOnlyCommands: Set<String> = [
        "whoami", "zone list", "record query", "record get", "schema export", "schema show", "schema diff",
        "subscribe list", "share list", "token list", "cloud check",
    ]
    /// The commands that make a cloud named explicitly.
    public static let creatingCommands: Set<String> = ["cloud create", "serve", "token create"]

    /// Throws when the command of `context` must not make the missing cloud of `locator`.
    static func check(_ locator: CloudLocator, context: CommandContext) throws {
        guard case .sqlite(let path) = locator, locator.isKnownAbsent else { return }
        let command = context.commandPath.joined(separator: " ")
        guard !command.isEmpty else { return }  // a context built by hand (tests, tools)
        let settings = context.settings
        let isDefault = settings.cloudSource == nil || settings.cloudURL == Settings.defaultCloudURL(home: settings.home)
        if readOnlyCommands.contains(command) {
            if !isDefault {
                throw CloudError(.unknownItem,
                                 "no cloud at \(path) (from \(settings.cloudSource ?? "the default")): check the path; 'cloudsync --cloud URL cloud create' makes a new one")
            }
            // The default cloud: `whoami` never makes it, nor does any read-only command make
            // a home folder that does not exist (`CLOUDSYNC_HOME=/tmp/typo`).
            if command == "whoami" || access(locator.localFolder ?? ".", F_OK) != 0 {
                throw CloudError(.unknownItem,
                                 "no cloud yet at \(path): nothing was saved in this home yet (the first command that saves creates it)")
            }
            return
        }
        if isDefault || creatingCommands.contains(command) { return }
        throw CloudError(.unknownItem,
                         "no cloud at \(path) (from \(settings.cloudSource ?? "the default")): check the path; 'cloudsync --cloud URL cloud create' makes a new one")
    }
}
