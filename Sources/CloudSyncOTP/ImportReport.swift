/// An entry of an import file that was not imported, and why.
public struct ImportProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where it was: a line number, the entry's label, or its position.
    public var entry: String
    /// The reason, in words.
    public var reason: String

    /// A problem with an entry.
    public init(entry: String, reason: String) {
        self.entry = entry
        self.reason = reason
    }

    /// `entry: reason`.
    public var description: String { entry.isEmpty ? reason : "\(entry): \(reason)" }
}

/// What an import file held: the usable tokens, in file order, and the broken entries.
public struct ImportContents: Sendable {
    /// The format that was read.
    public var format: ImportFormat
    /// The usable tokens, in file order.
    public var tokens: [OTPToken]
    /// The entries that were not usable.
    public var problems: [ImportProblem]

    /// What a file held.
    public init(format: ImportFormat, tokens: [OTPToken] = [], problems: [ImportProblem] = []) {
        self.format = format
        self.tokens = tokens
        self.problems = problems
    }
}

/// The import formats.
public enum ImportFormat: String, Sendable, Hashable, CaseIterable {
    /// `otpauth://` and `otpauth-migration://` URIs, one per line.
    case uris = "uri"
    /// An Aegis vault export (plain or password-encrypted).
    case aegis
    /// A 2FAS `.2fas` backup (plain).
    case twoFAS = "2fas"
    /// An andOTP JSON backup (plain).
    case andOTP = "andotp"
    /// A Bitwarden JSON export (plain), its items' `login.totp`.
    case bitwarden
    /// A Proton Authenticator JSON export.
    case proton

    /// The name shown to people.
    public var displayName: String {
        switch self {
        case .uris: "otpauth URIs"
        case .aegis: "Aegis vault"
        case .twoFAS: "2FAS backup"
        case .andOTP: "andOTP backup"
        case .bitwarden: "Bitwarden export"
        case .proton: "Proton Authenticator export"
        }
    }
}
