import CloudSyncCLI
import CloudSyncService
import CloudSyncCore

/// The session layer's part of settings resolution, registered with the CLI kit at start.
public enum SessionSettings {
    /// Registers the checks the kit cannot make: a `--cloud` (`CLOUDSYNC_CLOUD`, config `cloud`)
    /// value must be a URL `CloudLocator` understands, or the invocation is a usage error. A
    /// command for a server that names no account acts as its token's (`AccountFromCredential`).
    public static func registerChecks() {
        SettingChecks.register(.cloud) { url throws(CloudError) in
            _ = try CloudLocator(parsing: url)
        }
        AccountResolution.register(AccountFromCredential.resolve)
    }
}
