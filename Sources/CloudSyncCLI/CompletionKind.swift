/// What a shell completion script or the REPL should offer for an option value or a positional
/// argument. The generators read it from the command table; the parser also uses `.values` to
/// validate the input.
public enum CompletionKind: Sendable, Hashable {
    /// Nothing in particular (free text).
    case none
    /// A path on the local file system.
    case file
    /// The name of a record zone.
    case zoneName
    /// A record type from the schema.
    case recordType
    /// The name of a record.
    case recordName
    /// The identifier of a subscription.
    case subscriptionID
    /// A key of the ubiquitous key-value store.
    case kvKey
    /// The name of an OTP account.
    case otpName
    /// One of a closed set of words. The parser rejects anything else with a usage error.
    case values([String])
}
