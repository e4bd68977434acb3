extension HPKE {
    /// DHKEM(X25519, HKDF-SHA256), RFC 9180 §4.1: Encap/Decap and AuthEncap/AuthDecap, and
    /// DeriveKeyPair (§7.1.3).
    package enum DHKEM {
        /// `"KEM" || I2OSP(kem_id, 2)`.
        static let suiteID: [UInt8] = Array("KEM".utf8) + HPKE.bigEndian(HPKE.kemID)

        /// Encap (no `sender`) or AuthEncap (with it), with the given ephemeral key:
        /// the KEM shared secret and `enc` (the ephemeral public key).
        package static func encapsulate(to recipient: X25519PublicKey, sender: X25519PrivateKey?,
                                        ephemeral: X25519PrivateKey) throws(HPKEError) -> (sharedSecret: [UInt8], enc: [UInt8]) {
            var dh: [UInt8]
            do {
                dh = try ephemeral.sharedSecret(with: recipient)
                if let sender { dh += try sender.sharedSecret(with: recipient) }
            } catch { throw .encapsulationFailed(error.description) }
            let enc = ephemeral.publicKey.rawRepresentation
            var kemContext = enc + recipient.rawRepresentation
            if let sender { kemContext += sender.publicKey.rawRepresentation }
            return (try extractAndExpand(dh: dh, kemContext: kemContext), enc)
        }

        /// Decap (no `sender`) or AuthDecap (with the sender's public key): the KEM shared secret.
        package static func decapsulate(_ enc: [UInt8], recipient: X25519PrivateKey,
                                        sender: X25519PublicKey?) throws(HPKEError) -> [UInt8] {
            var dh: [UInt8]
            do {
                let ephemeral = try X25519PublicKey(rawRepresentation: enc)
                dh = try recipient.sharedSecret(with: ephemeral)
                if let sender { dh += try recipient.sharedSecret(with: sender) }
            } catch { throw .invalidEncapsulatedKey(error.description) }
            var kemContext = enc + recipient.publicKey.rawRepresentation
            if let sender { kemContext += sender.rawRepresentation }
            return try extractAndExpand(dh: dh, kemContext: kemContext)
        }

        /// DeriveKeyPair(ikm): the X25519 key RFC 9180's test vectors derive from ikmE, ikmR, ikmS.
        package static func deriveKeyPair(ikm: [UInt8]) throws(HPKEError) -> X25519PrivateKey {
            let prk = HPKE.labeledExtract(salt: [], label: "dkp_prk", ikm: ikm, suite: suiteID)
            let raw = try HPKE.labeledExpand(prk: prk, label: "sk", info: [], length: X25519PrivateKey.size, suite: suiteID)
            do { return try X25519PrivateKey(rawRepresentation: raw) } catch { throw .crypto(error) }
        }

        /// ExtractAndExpand(dh, kem_context): the 32-byte KEM shared secret (Nsecret).
        static func extractAndExpand(dh: [UInt8], kemContext: [UInt8]) throws(HPKEError) -> [UInt8] {
            let prk = HPKE.labeledExtract(salt: [], label: "eae_prk", ikm: dh, suite: suiteID)
            return try HPKE.labeledExpand(prk: prk, label: "shared_secret", info: kemContext, length: 32, suite: suiteID)
        }
    }
}
