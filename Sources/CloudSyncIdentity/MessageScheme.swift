import CloudSyncCore
import CloudSyncCrypto

/// How a message is sealed and stored (documented in `cloudsync help message` and the man page).
///
/// HPKE (RFC 9180) mode_auth, DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305;
/// info = `cloudsync message v1`; AAD = the record name in UTF-8. The plaintext is sealed twice
/// in one record: to the recipient (`enc`, `ciphertext`, `keyID`) and, for the outbox, to the
/// sender (`outboxEnc`, `outboxCiphertext`), both authenticated by the sender's key `senderKeyID`.
public enum MessageScheme {
    /// The public-database record type.
    public static let recordType = "Message"
    /// HPKE's info.
    public static let info = Array("cloudsync message v1".utf8)
    /// The largest plaintext (bytes): two sealed copies must fit in one 1 MB record.
    public static let maxPlaintext = 500 * 1024

    /// The AAD of a message: its record name in UTF-8.
    public static func aad(_ recordName: String) -> [UInt8] { Array(recordName.utf8) }

    /// A new message record name: `msg-` and 32 random hex digits.
    public static func newRecordName() -> String { "msg-" + Hex.encode(SecureRandom.bytes(16)) }

    /// Seals `plaintext` for `recipient`, authenticated as `sender`.
    public static func seal(_ plaintext: [UInt8], recordName: String, to recipient: X25519PublicKey,
                            from sender: X25519PrivateKey) throws -> HPKE.Sealed {
        try HPKE.sealAuth(plaintext, to: recipient, from: sender, info: info, aad: aad(recordName))
    }

    /// Opens a sealed copy; nil when it does not authenticate (tampered, other recipient, other
    /// sender, other record).
    public static func open(enc: [UInt8], ciphertext: [UInt8], recordName: String, recipient: X25519PrivateKey,
                            sender: X25519PublicKey) -> [UInt8]? {
        try? HPKE.openAuth(HPKE.Sealed(encapsulatedKey: enc, ciphertext: ciphertext), recipient: recipient, from: sender,
                           info: info, aad: aad(recordName))
    }
}

/// A `Message` record's fields as stored, before anything is opened.
public struct MessageEnvelope: Sendable {
    /// The record name.
    public let id: String
    /// The sender's userRecordName (the `from` reference).
    public let from: String
    /// The recipient's userRecordName (the `to` reference).
    public let to: String
    /// Who saved the record, as the cloud says.
    public let creator: String?
    /// When it was sent (ms).
    public let sentAt: Int64
    /// The recipient's copy: HPKE encapsulated key and ciphertext.
    public let enc: [UInt8]?
    public let ciphertext: [UInt8]?
    /// The fingerprint of the recipient key it is sealed to.
    public let keyID: String?
    /// The fingerprint of the sender key that authenticates it.
    public let senderKeyID: String?
    /// The sender's own (outbox) copy.
    public let outboxEnc: [UInt8]?
    public let outboxCiphertext: [UInt8]?

    /// The fields of a `Message` record.
    public init(_ record: Record) {
        id = record.recordID.recordName
        func reference(_ name: String) -> String {
            if case .reference(let r)? = record[name] { return r.recordID.recordName }
            return ""
        }
        func bytes(_ name: String) -> [UInt8]? {
            if case .bytes(let b)? = record[name] { return b }
            return nil
        }
        func string(_ name: String) -> String? {
            if case .string(let s)? = record[name] { return s }
            return nil
        }
        from = reference("from")
        to = reference("to")
        creator = record.system?.created.userRecordName
        if case .timestamp(let ms)? = record["sentAt"] { sentAt = ms } else { sentAt = 0 }
        enc = bytes("enc")
        ciphertext = bytes("ciphertext")
        keyID = string("keyID")
        senderKeyID = string("senderKeyID")
        outboxEnc = bytes("outboxEnc")
        outboxCiphertext = bytes("outboxCiphertext")
    }
}
