import CloudSyncCLI
import CloudSyncSession

/// What the whoami commands print with --json (the man page's JSON OUTPUT section).
enum WhoamiJSONOutput {
    static let whoami = JSONOutput.document("Who and where this invocation is.", [("account", "The account."), ("accountSource", "Where the account came from: --account, $CLOUDSYNC_ACCOUNT, the config file line, the token for a server URL, or the default."), ("userRecordName", "Its user record name, or null before the cloud knows it."), ("device", "The device."), ("container", "The container."), ("environment", "development or production."), ("cloud", "The cloud URL, as --cloud takes it (sqlite:///path for a file; no password)."), ("syncEnabled", "Whether sync is on for the account."), ("displayName", "The account's display name, or null."), ("discoverable", "Whether others find the account by its login, or null when the cloud cannot say.")])
}
