/// Why a store (a file, a PostgreSQL cloud) cannot be opened in its format.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A store of another kind (another format mark, or tables without one).
    case foreignFile(path: String, fileKind: String)
    /// Written by a newer cloudsync: this build must not touch it.
    case newerFormat(path: String, fileKind: String, version: Int64, supported: Int64)

    /// One line for the user.
    public var description: String {
        switch self {
        case .foreignFile(let path, let kind):
            "\(path) is an SQLite file but not a cloudsync \(kind.hasSuffix(" file") ? String(kind.dropLast(5)) : kind)"
        case .newerFormat(let path, let kind, let version, let supported):
            "\(kind) \(path) has format version \(version), newer than this cloudsync reads (up to \(supported)); upgrade cloudsync"
        }
    }
}
