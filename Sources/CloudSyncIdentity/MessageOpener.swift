import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto

/// A message as this account sees it: opened and authenticated, or not.
public struct OpenedMessage: Sendable {
    /// The record's fields.
    public let envelope: MessageEnvelope
    /// The correspondent's login (from the cloud's directory), or their userRecordName when it
    /// does not let itself be found by login.
    public let fromName: String
    public let toName: String
    /// Their display names (`whoami --set-name`), when they set one.
    public let fromDisplayName: String?
    public let toDisplayName: String?
    /// The plaintext, nil when the message could not be authenticated.
    public let plaintext: [UInt8]?
    /// Why not, for --json (never content).
    public let problem: String?
}

/// Opens messages for one account: its own keys, the correspondents' published keys (cached),
/// and the pins of this device.
public final class MessageOpener {
    /// The cloud and account it reads as.
    public let session: any IdentityContext
    /// Where the keys are read.
    public let store: IdentityStore
    /// This account's identity keys, oldest first.
    public let ownKeys: [IdentityKey]
    /// This device's pins, updated on first sight of a sender.
    public var pins: KeyPins
    private var identities: [String: PublishedIdentity?] = [:]
    private var users: [String: DirectoryUser?] = [:]

    /// Reads this account's keys (needs the data key) and this device's pins.
    public init(session: any IdentityContext) throws {
        self.session = session
        store = IdentityStore(session: session)
        ownKeys = try store.ownKeys()
        pins = try KeyPins(session: session)
    }

    /// This account's userRecordName.
    public var me: String { session.account.userRecordName }

    /// The published identity of a correspondent, cached; nil when none (or not valid).
    public func identity(_ userRecordName: String) -> PublishedIdentity? {
        if let cached = identities[userRecordName] { return cached }
        let found = try? store.published(userRecordName: userRecordName)
        identities[userRecordName] = found
        return found
    }

    /// A correspondent as the cloud's directory shows it (`users/lookup/id`), cached; nil when unknown.
    public func user(_ userRecordName: String) -> DirectoryUser? {
        if let cached = users[userRecordName] { return cached }
        let found = (try? session.lookUpUser(.userRecordName(userRecordName))) ?? nil
        users[userRecordName] = found
        return found
    }

    /// The login of a userRecordName, or the userRecordName itself when the directory gives none.
    public func name(_ userRecordName: String) -> String {
        if userRecordName == me { return session.account.name }
        return user(userRecordName)?.accountName ?? userRecordName
    }

    /// The display name of a userRecordName, nil when it set none.
    public func displayName(_ userRecordName: String) -> String? { user(userRecordName)?.displayName }

    /// This account's key with that fingerprint.
    public func ownKey(_ fingerprint: String?) -> IdentityKey? {
        guard let fingerprint else { return nil }
        return ownKeys.first { $0.fingerprint == fingerprint }
    }

    /// Opens `envelope` as its recipient (`asSender` false) or as its sender (the outbox copy).
    public func open(_ envelope: MessageEnvelope, asSender: Bool) -> OpenedMessage {
        func result(_ plaintext: [UInt8]?, _ problem: String?) -> OpenedMessage {
            OpenedMessage(envelope: envelope, fromName: name(envelope.from), toName: name(envelope.to),
                          fromDisplayName: displayName(envelope.from), toDisplayName: displayName(envelope.to),
                          plaintext: plaintext, problem: plaintext == nil ? problem : nil)
        }
        guard envelope.creator == envelope.from else { return result(nil, "the record was not saved by its sender") }
        if asSender {
            guard envelope.from == me, let key = ownKey(envelope.senderKeyID),
                  let enc = envelope.outboxEnc, let ciphertext = envelope.outboxCiphertext else {
                return result(nil, "no outbox copy sealed with one of your keys")
            }
            return result(MessageScheme.open(enc: enc, ciphertext: ciphertext, recordName: envelope.id, recipient: key.privateKey,
                                             sender: key.publicKey), "the outbox copy does not open (tampered)")
        }
        guard envelope.to == me, let key = ownKey(envelope.keyID), let enc = envelope.enc, let ciphertext = envelope.ciphertext else {
            return result(nil, "not sealed to one of your keys")
        }
        guard let senderKeyID = envelope.senderKeyID else { return result(nil, "no sender key") }
        let senderKey: X25519PublicKey
        if envelope.from == me {
            guard let own = ownKey(senderKeyID) else { return result(nil, "unknown sender key") }
            senderKey = own.publicKey
        } else {
            guard let identity = identity(envelope.from), let key = identity.key(withFingerprint: senderKeyID) else {
                return result(nil, "the sender has not published that key")
            }
            if pins.pinned(envelope.from) == nil { _ = try? pins.check(identity) }
            guard pins.trusts(senderKeyID, for: envelope.from) else {
                return result(nil, "the sender's key is not trusted here (changed key; see `cloudsync keys show`)")
            }
            senderKey = key
        }
        return result(MessageScheme.open(enc: enc, ciphertext: ciphertext, recordName: envelope.id, recipient: key.privateKey,
                                         sender: senderKey), "the message does not open (tampered, mis-addressed or not from its sender)")
    }
}
