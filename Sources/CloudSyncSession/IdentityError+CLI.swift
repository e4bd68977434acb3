import CloudSyncCLI
import CloudSyncIdentity

extension IdentityError: CLIErrorConvertible {
    /// The error as the CLI reports it, with its exit code: not found (3) for an account with no
    /// key or no account, denied (77) for a changed key, bad data (65) for a damaged record,
    /// private key or pin file.
    public var cliError: CLIError {
        switch self {
        case .notPublished, .unknownAccount: .notFound(description)
        case .keyChanged: .permissionDenied(description)
        case .badRecord, .privateKeyDamaged, .pinsDamaged: .badInput(description)
        }
    }
}
