import CloudSyncService

/// A token or API token that the pre-check of a request's head found in force (its use noted
/// there): handed with the request to `WebServicesAuthenticator.caller(…prechecked:)`, so that
/// one request looks its credential up once, not once for the head and once more with the body.
/// A token revoked between the two is treated like one revoked while its request was already
/// being answered.
public struct PrecheckedCredential: Sendable, Hashable {
    /// Which kind of credential the request presented.
    public enum Kind: Sendable, Hashable {
        case token
        case apiToken
    }

    public let kind: Kind
    /// The token as presented.
    public let token: String
    /// Its stored row, in force when the head was judged.
    public let row: CredentialRow
    /// Found in this process's cache, not in the store: the request's write confirms it, or
    /// `WebServicesAuthenticator.confirm` does before the request is answered
    /// (`CredentialConfirmation`).
    public let confirmedLater: Bool

    /// `token` presented as `kind`, found in force as `row` (in the cache: `confirmedLater`).
    public init(kind: Kind, token: String, row: CredentialRow, confirmedLater: Bool = false) {
        self.kind = kind
        self.token = token
        self.row = row
        self.confirmedLater = confirmedLater
    }

    /// The row, when this is the check of `token` presented as `kind`.
    func row(for kind: Kind, _ token: String) -> CredentialRow? {
        kind == self.kind && token == self.token ? row : nil
    }
}

/// What an authenticator decided from a request's head (`WebServicesAuthenticator.admission`).
public enum CredentialAdmission: Sendable {
    /// Refused before the body is read.
    case refused(CredentialRefusal)
    /// Let through; with the credential found in force, when one was looked up.
    case admitted(PrecheckedCredential?)

    /// The refusal, if this is one.
    public var refusal: CredentialRefusal? {
        if case .refused(let refusal) = self { return refusal }
        return nil
    }
}
