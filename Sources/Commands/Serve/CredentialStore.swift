import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// The cloud whose storage holds the credentials: `serve` and `token` work on the store itself
/// (`--cloud sqlite://…` or `postgres://…`), never through another server.
enum CredentialStore {
    static func service(_ context: CommandContext) throws -> StorageBackedCloud {
        let locator = try CloudLocator(parsing: context.settings.cloudURL)
        if locator.isWebServicesServer {
            throw CLIError.usage("this command works on the cloud's store itself; give --cloud sqlite:///… or postgres://…, not a server URL")
        }
        guard let service = try context.openCloudAsAllowed(locator).capabilities.admin else {
            throw CLIError.usage("the cloud \(locator.displayName) keeps no credentials")
        }
        return service
    }
}
