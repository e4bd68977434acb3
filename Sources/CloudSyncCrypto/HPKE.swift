/// Hybrid Public Key Encryption, RFC 9180, for one ciphersuite:
/// DHKEM(X25519, HKDF-SHA256) (kem_id 0x0020), HKDF-SHA256 (kdf_id 0x0001) and
/// ChaCha20-Poly1305 (aead_id 0x0003), in all four modes (base, psk, auth, auth_psk).
///
/// The `setup…S` functions return the encapsulated key (`enc`, 32 bytes, to send along) and a
/// `SenderContext`; the matching `setup…R` functions take `enc` and return a
/// `RecipientContext`. `seal…`/`open…` are the single-shot forms (one message per context).
public enum HPKE {
    /// The ciphersuite's algorithm identifiers.
    public static let kemID: UInt16 = 0x0020
    public static let kdfID: UInt16 = 0x0001
    public static let aeadID: UInt16 = 0x0003

    /// The AEAD's key and nonce lengths (Nk, Nn) and the KDF's output length (Nh).
    static let keyLength = ChaChaPoly.keySize
    static let nonceLength = ChaChaPoly.nonceSize
    static let hashLength = HKDF.hashSize

    /// HPKE's modes (RFC 9180 §5, Table 1).
    public enum Mode: UInt8, Sendable {
        case base = 0x00
        case psk = 0x01
        case auth = 0x02
        case authPSK = 0x03
    }

    /// A sealed single-shot message: what the recipient needs besides its key, the info and the AAD.
    public struct Sealed: Sendable, Hashable {
        /// `enc`: the sender's ephemeral X25519 public key (32 bytes).
        public let encapsulatedKey: [UInt8]
        /// The ChaCha20-Poly1305 ciphertext followed by its 16-byte tag.
        public let ciphertext: [UInt8]

        public init(encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
            self.encapsulatedKey = encapsulatedKey
            self.ciphertext = ciphertext
        }
    }

    /// `"HPKE" || I2OSP(kem_id, 2) || I2OSP(kdf_id, 2) || I2OSP(aead_id, 2)`.
    static let suiteID: [UInt8] = Array("HPKE".utf8) + bigEndian(kemID) + bigEndian(kdfID) + bigEndian(aeadID)

    // MARK: Setup (RFC 9180 §5.1)

    /// SetupBaseS: encrypt to `recipient`'s public key.
    public static func setupBaseS(recipient: X25519PublicKey, info: [UInt8]) throws(HPKEError) -> (encapsulatedKey: [UInt8], context: SenderContext) {
        try setupS(mode: .base, recipient: recipient, info: info)
    }

    /// SetupBaseR: the recipient's side of `setupBaseS`.
    public static func setupBaseR(encapsulatedKey: [UInt8], recipient: X25519PrivateKey, info: [UInt8]) throws(HPKEError) -> RecipientContext {
        try setupR(mode: .base, encapsulatedKey: encapsulatedKey, recipient: recipient, info: info)
    }

    /// SetupPSKS: encrypt to `recipient`, authenticated by a pre-shared key and its id.
    public static func setupPSKS(recipient: X25519PublicKey, info: [UInt8], psk: [UInt8], pskID: [UInt8]) throws(HPKEError)
        -> (encapsulatedKey: [UInt8], context: SenderContext) {
        try setupS(mode: .psk, recipient: recipient, info: info, psk: psk, pskID: pskID)
    }

    /// SetupPSKR: the recipient's side of `setupPSKS`.
    public static func setupPSKR(encapsulatedKey: [UInt8], recipient: X25519PrivateKey, info: [UInt8], psk: [UInt8],
                                 pskID: [UInt8]) throws(HPKEError) -> RecipientContext {
        try setupR(mode: .psk, encapsulatedKey: encapsulatedKey, recipient: recipient, info: info, psk: psk, pskID: pskID)
    }

    /// SetupAuthS: encrypt to `recipient`, authenticated as the holder of `sender`.
    public static func setupAuthS(recipient: X25519PublicKey, info: [UInt8], sender: X25519PrivateKey) throws(HPKEError)
        -> (encapsulatedKey: [UInt8], context: SenderContext) {
        try setupS(mode: .auth, recipient: recipient, info: info, sender: sender)
    }

    /// SetupAuthR: the recipient's side of `setupAuthS`; opening succeeds only for messages
    /// sealed by the holder of `sender`'s private key.
    public static func setupAuthR(encapsulatedKey: [UInt8], recipient: X25519PrivateKey, info: [UInt8],
                                  sender: X25519PublicKey) throws(HPKEError) -> RecipientContext {
        try setupR(mode: .auth, encapsulatedKey: encapsulatedKey, recipient: recipient, info: info, sender: sender)
    }

    /// SetupAuthPSKS: both a sender key and a pre-shared key.
    public static func setupAuthPSKS(recipient: X25519PublicKey, info: [UInt8], psk: [UInt8], pskID: [UInt8],
                                     sender: X25519PrivateKey) throws(HPKEError) -> (encapsulatedKey: [UInt8], context: SenderContext) {
        try setupS(mode: .authPSK, recipient: recipient, info: info, psk: psk, pskID: pskID, sender: sender)
    }

    /// SetupAuthPSKR: the recipient's side of `setupAuthPSKS`.
    public static func setupAuthPSKR(encapsulatedKey: [UInt8], recipient: X25519PrivateKey, info: [UInt8], psk: [UInt8],
                                     pskID: [UInt8], sender: X25519PublicKey) throws(HPKEError) -> RecipientContext {
        try setupR(mode: .authPSK, encapsulatedKey: encapsulatedKey, recipient: recipient, info: info, psk: psk, pskID: pskID,
                   sender: sender)
    }

    /// The sender's setup for any mode. `ephemeral` fixes the KEM's ephemeral key instead of a
    /// random one: only for reproducing published test vectors (never reuse an ephemeral key).
    package static func setupS(mode: Mode, recipient: X25519PublicKey, info: [UInt8], psk: [UInt8] = [], pskID: [UInt8] = [],
                               sender: X25519PrivateKey? = nil, ephemeral: X25519PrivateKey? = nil) throws(HPKEError)
        -> (encapsulatedKey: [UInt8], context: SenderContext) {
        try checkPSK(mode: mode, psk: psk, pskID: pskID)
        let ephemeralKey: X25519PrivateKey
        if let ephemeral { ephemeralKey = ephemeral } else {
            do { ephemeralKey = try X25519PrivateKey.generate() } catch { throw .crypto(error) }
        }
        let (sharedSecret, enc) = try DHKEM.encapsulate(to: recipient, sender: sender, ephemeral: ephemeralKey)
        let schedule = try keySchedule(mode: mode, sharedSecret: sharedSecret, info: info, psk: psk, pskID: pskID)
        return (enc, SenderContext(schedule))
    }

    /// The recipient's setup for any mode.
    package static func setupR(mode: Mode, encapsulatedKey: [UInt8], recipient: X25519PrivateKey, info: [UInt8], psk: [UInt8] = [],
                               pskID: [UInt8] = [], sender: X25519PublicKey? = nil) throws(HPKEError) -> RecipientContext {
        try checkPSK(mode: mode, psk: psk, pskID: pskID)
        let sharedSecret = try DHKEM.decapsulate(encapsulatedKey, recipient: recipient, sender: sender)
        return RecipientContext(try keySchedule(mode: mode, sharedSecret: sharedSecret, info: info, psk: psk, pskID: pskID))
    }

    // MARK: Single-shot (RFC 9180 §6)

    /// Base mode, one message: encrypts `plaintext` to `recipient`.
    public static func sealBase(_ plaintext: [UInt8], to recipient: X25519PublicKey, info: [UInt8], aad: [UInt8]) throws(HPKEError) -> Sealed {
        var (enc, context) = try setupBaseS(recipient: recipient, info: info)
        return Sealed(encapsulatedKey: enc, ciphertext: try context.seal(plaintext, aad: aad))
    }

    /// Base mode, one message: the plaintext of `sealed`, or `openFailed`.
    public static func openBase(_ sealed: Sealed, recipient: X25519PrivateKey, info: [UInt8], aad: [UInt8]) throws(HPKEError) -> [UInt8] {
        var context = try setupBaseR(encapsulatedKey: sealed.encapsulatedKey, recipient: recipient, info: info)
        return try context.open(sealed.ciphertext, aad: aad)
    }

    /// Auth mode, one message: encrypts `plaintext` to `recipient`, authenticated as `sender`.
    public static func sealAuth(_ plaintext: [UInt8], to recipient: X25519PublicKey, from sender: X25519PrivateKey, info: [UInt8],
                                aad: [UInt8]) throws(HPKEError) -> Sealed {
        var (enc, context) = try setupAuthS(recipient: recipient, info: info, sender: sender)
        return Sealed(encapsulatedKey: enc, ciphertext: try context.seal(plaintext, aad: aad))
    }

    /// Auth mode, one message: the plaintext of `sealed` if `sender`'s key sealed it for
    /// `recipient` with this info and AAD; otherwise `openFailed` (or `invalidEncapsulatedKey`).
    public static func openAuth(_ sealed: Sealed, recipient: X25519PrivateKey, from sender: X25519PublicKey, info: [UInt8],
                                aad: [UInt8]) throws(HPKEError) -> [UInt8] {
        var context = try setupAuthR(encapsulatedKey: sealed.encapsulatedKey, recipient: recipient, info: info, sender: sender)
        return try context.open(sealed.ciphertext, aad: aad)
    }

    // MARK: Key schedule (RFC 9180 §5.1)

    /// VerifyPSKInputs.
    static func checkPSK(mode: Mode, psk: [UInt8], pskID: [UInt8]) throws(HPKEError) {
        guard psk.isEmpty == pskID.isEmpty else { throw .invalidPSK("a pre-shared key needs its id, and an id its key") }
        switch mode {
        case .base, .auth: guard psk.isEmpty else { throw .invalidPSK("this mode takes no pre-shared key") }
        case .psk, .authPSK: guard !psk.isEmpty else { throw .invalidPSK("this mode needs a pre-shared key") }
        }
        // RFC 9180 §9.5: a PSK MUST have at least 32 bytes of entropy.
        if !psk.isEmpty, psk.count < 32 { throw .invalidPSK("a pre-shared key must be at least 32 bytes") }
    }

    /// KeySchedule: the AEAD key, base nonce and exporter secret of a context.
    static func keySchedule(mode: Mode, sharedSecret: [UInt8], info: [UInt8], psk: [UInt8], pskID: [UInt8]) throws(HPKEError) -> KeySchedule {
        let pskIDHash = labeledExtract(salt: [], label: "psk_id_hash", ikm: pskID, suite: suiteID)
        let infoHash = labeledExtract(salt: [], label: "info_hash", ikm: info, suite: suiteID)
        let context = [mode.rawValue] + pskIDHash + infoHash
        let secret = labeledExtract(salt: sharedSecret, label: "secret", ikm: psk, suite: suiteID)
        return KeySchedule(key: try labeledExpand(prk: secret, label: "key", info: context, length: keyLength, suite: suiteID),
                           baseNonce: try labeledExpand(prk: secret, label: "base_nonce", info: context, length: nonceLength, suite: suiteID),
                           exporterSecret: try labeledExpand(prk: secret, label: "exp", info: context, length: hashLength, suite: suiteID))
    }

    /// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" || suite_id || label || ikm).
    static func labeledExtract(salt: [UInt8], label: String, ikm: [UInt8], suite: [UInt8]) -> [UInt8] {
        HKDF.extract(salt: salt, ikm: Array("HPKE-v1".utf8) + suite + Array(label.utf8) + ikm)
    }

    /// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) || "HPKE-v1" || suite_id || label || info, L).
    static func labeledExpand(prk: [UInt8], label: String, info: [UInt8], length: Int, suite: [UInt8]) throws(HPKEError) -> [UInt8] {
        guard length >= 0, length <= Int(UInt16.max) else { throw .crypto(.library("LabeledExpand length \(length) does not fit 2 bytes")) }
        let labeledInfo = bigEndian(UInt16(length)) + Array("HPKE-v1".utf8) + suite + Array(label.utf8) + info
        do { return try HKDF.expand(prk: prk, info: labeledInfo, length: length) } catch { throw .crypto(error) }
    }

    /// I2OSP(value, 2).
    static func bigEndian(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xff)] }
}
