import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto

/// One of this account's identity keypairs (X25519), as kept encrypted in the private database.
public struct IdentityKey: Sendable {
    /// The private key (never printed: its description shows only the public half).
    public let privateKey: X25519PrivateKey
    /// When it was made (ms since the epoch).
    public let createdAt: Int64

    /// The public key.
    public var publicKey: X25519PublicKey { privateKey.publicKey }
    /// `Identity.fingerprint` of the public key.
    public var fingerprint: String { Identity.fingerprint(publicKey) }
}

/// A public key published in the public database (record type `UserIdentity`, named by the
/// owner's userRecordName), as another account reads it.
public struct PublishedIdentity: Sendable {
    /// The owner's login, as the owner published it.
    public let account: String
    /// The owner's userRecordName (also the record's name and, checked, its creator).
    public let userRecordName: String
    /// The current public key.
    public let publicKey: X25519PublicKey
    /// When the current key was made (ms).
    public let createdAt: Int64
    /// Keys the owner rotated away from, oldest first: a message sealed with one of them still
    /// authenticates if the reader trusted that key.
    public let previousKeys: [X25519PublicKey]
    /// The owner as the cloud's directory shows it (display name, login), when looked up.
    public var user: DirectoryUser?

    /// The current key's fingerprint.
    public var fingerprint: String { Identity.fingerprint(publicKey) }

    /// The current or a previous key with this fingerprint.
    public func key(withFingerprint fingerprint: String) -> X25519PublicKey? {
        ([publicKey] + previousKeys).first { Identity.fingerprint($0) == fingerprint }
    }
}

/// Names and encodings shared by identities and messages.
public enum Identity {
    /// The private-database record type of an encrypted identity private key.
    public static let privateRecordType = "IdentityKey"
    /// The public-database record type of a published public key (the "user record").
    public static let publicRecordType = "UserIdentity"

    /// The fingerprint of a public key: lowercase hex SHA-256 of its 32 raw bytes (64 digits).
    public static func fingerprint(_ key: X25519PublicKey) -> String {
        Hex.encode(SHA256.digest(key.rawRepresentation))
    }

    /// A fingerprint as typed (any case, with `:`, `-` or spaces between digits), normalized;
    /// nil unless it is 64 hex digits.
    public static func normalizedFingerprint(_ text: String) -> String? {
        let digits = text.lowercased().filter { $0 != ":" && $0 != "-" && $0 != " " }
        guard digits.count == 64, digits.allSatisfy({ $0.isHexDigit }) else { return nil }
        return digits
    }

    /// The fingerprint in groups of four digits, for reading aloud.
    public static func grouped(_ fingerprint: String) -> String {
        var out = ""
        for (index, character) in fingerprint.enumerated() {
            if index > 0 && index % 4 == 0 { out += " " }
            out.append(character)
        }
        return out
    }
}
