import CloudSyncCLI
import CloudSyncService
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
/// - A read-only command (`whoami`, `zone list`, `record query`, `record get`, …) never creates
///   a file or folder: on a default cloud not made yet it answers from an empty cloud held in
///   memory ("nothing there": no zones but `_defaultZone`, `(0 records)`, `record get` not
///   found), and `whoami` says there is no cloud yet. Registering an account therefore takes a
///   command that writes (`zone create`, `record save`, `store put`, `token create`, …).
public enum CloudCreation {
    /// The commands that only read the cloud.
    public static let readOnlyCommands: Set<String> = [
        "whoami", "zone list", "record query", "record get", "schema export", "schema show", "schema diff",
        "subscribe list", "share list", "token list", "cloud check", "fetch-changes", "kv get", "kv list",
        "message inbox", "message outbox", "message read", "keys status", "keys show", "admin list",
        "store status", "store get", "store query", "store history", "store conflicts", "store export",
        "otp list", "otp show", "otp export",
    ]
    /// Read-only commands that keep what they read in the device file all the same:
    /// `fetch-changes` keeps its change tokens there, so that the next run goes on from them;
    /// `keys show` and the message readers pin the keys they see first (trust on first use).
    /// They read an empty device store in memory only when the cloud itself is in memory.
    public static let keepingDeviceState: Set<String> = ["fetch-changes", "keys show", "message inbox", "message outbox",
                                                         "message read"]
    /// The memo key of the flag set when this invocation answers from an empty cloud in memory.
    static let inMemoryKey = "cloudsync.cloudInMemory"

    /// A flag kept for one invocation (`CommandContext.memoized`).
    final class Flag: @unchecked Sendable {
        var isSet = false
    }

    /// True when the command of `context` reads an empty device store in memory rather than
    /// make the missing device file at `deviceFile`: a read-only command (or any command whose
    /// cloud is the empty one in memory) on a device with no file yet.
    static func readsDeviceInMemory(context: CommandContext, deviceFile: String) -> Bool {
        guard access(deviceFile, F_OK) != 0 else { return false }
        if context.memoized(inMemoryKey, { Flag() }).isSet { return true }
        let command = context.commandPath.joined(separator: " ")
        return readOnlyCommands.contains(command) && !keepingDeviceState.contains(command)
    }

    /// The commands that make a cloud named explicitly.
    public static let creatingCommands: Set<String> = ["cloud create", "serve", "token create"]

    /// How a command opens the cloud of `locator`.
    enum Opening: Equatable {
        /// Open (and, where allowed, create) the cloud itself.
        case cloud
        /// Answer from an empty cloud held in memory: a read-only command on a default cloud
        /// that does not exist yet, which must create nothing.
        case emptyInMemory
    }

    /// How the command of `context` opens the cloud of `locator`; throws when it must not make
    /// the missing cloud of `locator`.
    static func check(_ locator: CloudLocator, context: CommandContext) throws -> Opening {
        guard let path = locator.localPath, locator.isKnownAbsent else { return .cloud }
        let command = context.commandPath.joined(separator: " ")
        guard !command.isEmpty else { return .cloud }  // a context built by hand (tests, tools)
        let settings = context.settings
        let isDefault = settings.cloudSource == nil || settings.cloudURL == Settings.defaultCloudURL(home: settings.home)
        if readOnlyCommands.contains(command) {
            if !isDefault {
                throw CloudError(.unknownItem,
                                 "no cloud at \(path) (from \(settings.cloudSource ?? "the default")): check the path; 'cloudsync --cloud URL cloud create' makes a new one")
            }
            // The default cloud: `whoami` says there is none yet; the others answer from an
            // empty cloud, and none makes a file or a home folder (`CLOUDSYNC_HOME=/tmp/typo`).
            if command == "whoami" {
                throw CloudError(.unknownItem,
                                 "no cloud yet at \(path): nothing was saved in this home yet (the first command that saves creates it)")
            }
            return .emptyInMemory
        }
        if isDefault || creatingCommands.contains(command) { return .cloud }
        throw CloudError(.unknownItem,
                         "no cloud at \(path) (from \(settings.cloudSource ?? "the default")): check the path; 'cloudsync --cloud URL cloud create' makes a new one")
    }
}
