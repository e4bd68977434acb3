/// Why an identity could not be used. Each case is one sentence for the user.
public enum IdentityError: Error, Sendable, CustomStringConvertible {
    /// The account never ran `keys identity` (exit 3).
    case notPublished(account: String)
    /// No account can be found by this login: none has it, or it is not discoverable (exit 3).
    case unknownAccount(account: String)
    /// The published key differs from the pinned one (exit 77).
    case keyChanged(account: String, pinned: String, published: String)
    /// The published record was not made by its owner, or is malformed (exit 65).
    case badRecord(account: String, reason: String)
    /// An encrypted private key did not open with the data key (exit 65).
    case privateKeyDamaged(recordName: String)
    /// The pin file of this device is not the JSON it should be (exit 65).
    case pinsDamaged(path: String)

    public var description: String {
        switch self {
        case .notPublished(let account):
            "account '\(account)' has no published identity key (it must run `cloudsync keys identity` first)"
        case .unknownAccount(let account):
            "no account '\(account)' can be found (no such account, or it does not let itself be found by its login: ask for its userRecordName)"
        case .keyChanged(let account, let pinned, let published):
            "the identity key of '\(account)' CHANGED: pinned \(pinned), now published \(published); check it with them, then run `cloudsync keys trust \(account) \(published)`"
        case .badRecord(let account, let reason):
            "the published identity of '\(account)' is not valid: \(reason)"
        case .privateKeyDamaged(let recordName):
            "the identity private key \(recordName) could not be decrypted with the data key (damaged, or another account's)"
        case .pinsDamaged(let path):
            "the key pin file \(path) is damaged; remove it to pin keys again on first sight"
        }
    }
}
