/// A container's environment, as in CloudKit: development grows its schema on save and can be
/// reset; production holds only what was deployed and enforces it. Their data is separate.
public enum CloudEnvironment: String, Sendable, Hashable, CaseIterable {
    case development
    case production

    /// Parses `development` or `production` (also `dev`, `prod`), or nil.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "development", "dev": self = .development
        case "production", "prod": self = .production
        default: return nil
        }
    }

    /// The container key a storage files this environment's data under: the container itself for
    /// development (so the files written before environments existed stay development), and
    /// `production/<container>` for production. A container identifier starts with `iCloud.`, so
    /// the two never collide, and a storage needs no column of its own for the environment.
    public func storageContainer(_ container: String) -> String {
        switch self {
        case .development: container
        case .production: "production/" + container
        }
    }
}
