/// What a presented credential (a token, an API token or a server-to-server key ID) turned out
/// to be, so that a refusal can say which: no such credential, or one that was revoked.
public enum CredentialCheck: Sendable, Hashable {
    /// A credential in force.
    case inForce(CredentialRow)
    /// A credential that existed and was revoked (`token revoke`).
    case revoked
    /// No credential has this value or ID.
    case unknown

    /// The credential when it is in force, else nil.
    public var inForce: CredentialRow? {
        if case .inForce(let row) = self { return row }
        return nil
    }
}
