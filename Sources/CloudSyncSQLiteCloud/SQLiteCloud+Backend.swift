import CloudSyncCore
import CloudSyncService

extension SQLiteCloud {
    /// The embedded cloud as `CloudLocator` opens it: `sqlite:///abs/path` or
    /// `sqlite:relative/path`, registered at the composition root.
    public static let backend = CloudBackendRegistration(
        name: "sqlite", form: .file, acceptedForms: "sqlite:///path/to/cloud.sqlite"
    ) { locator, request in
        guard let path = locator.localPath else {
            throw CloudError(.invalidArguments, "cloud URL '\(locator.url)' names no file")
        }
        return try SQLiteCloud(path: path, clock: request.clock)
    }
}
