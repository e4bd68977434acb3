import CloudSyncCLI
import CloudSyncSession

/// `cloudsync message`: end-to-end encrypted messages between accounts (seed 002).
public enum MessageCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "message",
        abstract: "Send and read end-to-end encrypted messages between accounts.",
        discussion: """
            Each account has an identity key (see `cloudsync keys identity`). A message is one \
            record of type Message in the public database's _defaultZone, readable by everyone but \
            sealed so that only its recipient and its sender can open it. Only the sender may \
            delete it; the recipient may hide it from their inbox (on this device). A message that \
            was tampered with, is mis-addressed or was not sealed by its sender's trusted key is \
            listed as "could not be authenticated", never with its content.

            The exact scheme, so that any HPKE implementation can read cloudsync messages: HPKE \
            (RFC 9180) mode_auth (0x02) with DHKEM(X25519, HKDF-SHA256) (kem_id 0x0020), \
            HKDF-SHA256 (kdf_id 0x0001) and ChaCha20-Poly1305 (aead_id 0x0003); info = the \
            UTF-8 bytes of "cloudsync message v1"; aad = the record name in UTF-8 (msg- and 32 \
            hex digits); one single-shot seal (sequence number 0) per copy; the plaintext is the \
            UTF-8 text or the file's bytes (at most 512000 bytes). Record fields: to and from \
            (REFERENCE to the users' UserIdentity records, named by userRecordName), sentAt \
            (TIMESTAMP), enc (BYTES, the 32-byte encapsulated key) and ciphertext (BYTES, with \
            its 16-byte tag) sealed to the recipient's key whose fingerprint is keyID (STRING), \
            and a second copy for the sender's outbox in the same record, outboxEnc and \
            outboxCiphertext (BYTES), sealed to the sender's own key; both copies are \
            authenticated by the sender's key whose fingerprint is senderKeyID (STRING). A \
            fingerprint is the lowercase hex SHA-256 of the raw 32-byte X25519 public key. Public \
            keys are the UserIdentity records (publicKey BYTES, fingerprint, createdAt, \
            previousKeys BYTES_LIST); `keys export-identity` writes the private key as PKCS#8 \
            PEM (RFC 8410).

            Live chat: make a query subscription on your inbox once, then listen, e.g. \
            `cloudsync subscribe create --query Message --where 'to == %@' --arg USER \
            --fires-on create --database public --id inbox` (USER is the userRecordName that \
            `cloudsync keys identity --json` prints), then \
            `cloudsync subscribe listen --exec 'cloudsync message read "$CLOUDSYNC_RECORD_NAME"'` \
            prints each new message as it arrives.
            """,
        examples: [Example("cloudsync message send bob 'lunch at noon?'", "Send Bob a text message."),
                   Example("cloudsync message send bob --file photo.jpg", "Send the bytes of a file."),
                   Example("cloudsync message inbox --since 2026-01-01", "Messages received since a date."),
                   Example("cloudsync message read msg-0123456789abcdef0123456789abcdef", "Print one message.")],
        subcommands: [MessageSend.spec, MessageList.inbox, MessageList.outbox, MessageRead.spec, MessageDelete.spec])
}
