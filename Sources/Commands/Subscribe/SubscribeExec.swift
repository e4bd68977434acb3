import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// Runs the `--exec` command of `subscribe listen` once per notification: `/bin/sh -c COMMAND`
/// with the listener's environment, its context as `CLOUDSYNC_*` variables (so a `cloudsync`
/// inside acts as the same account and device), the notification as variables, and the folder of
/// the running `cloudsync` first on `PATH` (as git does for its hooks). The command's stdout goes
/// to the listener's stderr, so the listener's stdout stays one line per notification.
struct SubscribeExec {
    let command: String
    let baseEnvironment: [String: String]
    let outputDescriptor: Int32

    /// The variables that describe one notification.
    static let notificationVariables = [
        "CLOUDSYNC_NOTIFICATION_JSON", "CLOUDSYNC_NOTIFICATION_ID", "CLOUDSYNC_NOTIFICATION_TYPE",
        "CLOUDSYNC_SUBSCRIPTION_ID", "CLOUDSYNC_DATABASE", "CLOUDSYNC_ZONE", "CLOUDSYNC_RECORD_NAME",
        "CLOUDSYNC_RECORD_TYPE", "CLOUDSYNC_REASON",
    ]

    init(command: String, context: CommandContext) {
        self.command = command
        var environment = context.environment.merging(context.settings.exportedEnvironment()) { $1 }
        for name in SubscribeExec.notificationVariables { environment[name] = nil }
        if let executable = SubscribeFiles.selfExecutable() {
            let folder = SubscribeFiles.folder(of: executable)
            let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
            if !path.split(separator: ":").contains(Substring(folder)) {
                environment["PATH"] = folder + ":" + path
            }
        }
        baseEnvironment = environment
        outputDescriptor = context.output.standardError
    }

    /// The environment of the command for `notification`.
    func environment(for notification: CloudNotification) -> [String: String] {
        var environment = baseEnvironment
        environment["CLOUDSYNC_NOTIFICATION_JSON"] = notification.json.serialized()
        environment["CLOUDSYNC_NOTIFICATION_ID"] = notification.notificationID
        environment["CLOUDSYNC_NOTIFICATION_TYPE"] = notification.kind.rawValue
        environment["CLOUDSYNC_SUBSCRIPTION_ID"] = notification.subscriptionID
        environment["CLOUDSYNC_DATABASE"] = notification.databaseScope?.rawValue
        environment["CLOUDSYNC_ZONE"] = notification.zoneID?.zoneName
        environment["CLOUDSYNC_RECORD_NAME"] = notification.recordID?.recordName
        environment["CLOUDSYNC_RECORD_TYPE"] = notification.recordType
        environment["CLOUDSYNC_REASON"] = notification.reason?.rawValue
        return environment
    }

    /// Runs the command for `notification` and returns its exit status (128 + signal if killed).
    func run(_ notification: CloudNotification) throws -> Int32 {
        do {
            return try ProcessRunner.run("/bin/sh", argv0: "sh", arguments: ["-c", command],
                                         environment: environment(for: notification),
                                         stdout: outputDescriptor, stderr: outputDescriptor)
        } catch {
            throw CLIError.failed("--exec: \(error)")
        }
    }
}
