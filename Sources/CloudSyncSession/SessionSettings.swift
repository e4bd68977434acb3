import CloudSyncCLI
import CloudSyncCloud
import CloudSyncCore

/// The session layer's part of settings resolution, registered with the CLI kit at start.
public enum SessionSettings {
    /// Registers the checks the kit cannot make: a `--cloud` (`CLOUDSYNC_CLOUD`, config `cloud`)
    /// value must be a URL `CloudLocator` understands, or the invocation is a usage error.
    public static func registerChecks() {
        SettingChecks.register(.cloud) { url throws(CloudError) in
            _ = try CloudLocator(parsing: url)
        }
    }
}
