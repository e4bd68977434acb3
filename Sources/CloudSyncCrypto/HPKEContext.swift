extension HPKE {
    /// What the key schedule gives a context (RFC 9180 §5.1).
    package struct KeySchedule: Sendable {
        /// The ChaCha20-Poly1305 key (Nk = 32 bytes).
        package let key: [UInt8]
        /// The nonce of message 0; message `seq` uses `baseNonce XOR I2OSP(seq, 12)`.
        package let baseNonce: [UInt8]
        /// The secret the context's `export` derives from.
        package let exporterSecret: [UInt8]
        /// How many messages the context has sealed or opened.
        package var sequenceNumber: UInt64 = 0

        /// ComputeNonce(seq).
        package func nonce(for sequence: UInt64) -> [UInt8] {
            var nonce = baseNonce
            for byte in 0..<8 { nonce[HPKE.nonceLength - 1 - byte] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(byte))) }
            return nonce
        }

        /// The nonce of the next message, or `messageLimitReached` when the sequence is used up
        /// (here at 2^64 - 1 messages, fewer than the 2^96 - 1 RFC 9180 allows).
        func nextNonce() throws(HPKEError) -> [UInt8] {
            guard sequenceNumber < UInt64.max else { throw .messageLimitReached }
            return nonce(for: sequenceNumber)
        }

        /// Context.Export(exporter_context, L).
        func export(context: [UInt8], length: Int) throws(HPKEError) -> [UInt8] {
            guard length <= 255 * HPKE.hashLength else { throw .crypto(.library("an HPKE export is at most 8160 bytes")) }
            return try HPKE.labeledExpand(prk: exporterSecret, label: "sec", info: context, length: length, suite: HPKE.suiteID)
        }
    }

    /// The sender's encryption context: seals messages in order (RFC 9180 §5.2).
    public struct SenderContext: Sendable {
        package var schedule: KeySchedule

        init(_ schedule: KeySchedule) { self.schedule = schedule }

        /// How many messages this context has sealed.
        public var sequenceNumber: UInt64 { schedule.sequenceNumber }

        /// Context.Seal: encrypts the next message with `aad` as associated data.
        public mutating func seal(_ plaintext: [UInt8], aad: [UInt8]) throws(HPKEError) -> [UInt8] {
            let nonce = try schedule.nextNonce()
            let ciphertext: [UInt8]
            do { ciphertext = try ChaChaPoly.seal(plaintext, key: schedule.key, nonce: nonce, aad: aad) } catch { throw .crypto(error) }
            schedule.sequenceNumber += 1
            return ciphertext
        }

        /// Context.Export: `length` bytes of secret bound to this context and `context`.
        public func export(context: [UInt8], length: Int) throws(HPKEError) -> [UInt8] {
            try schedule.export(context: context, length: length)
        }
    }

    /// The recipient's decryption context: opens messages in the order they were sealed.
    public struct RecipientContext: Sendable {
        package var schedule: KeySchedule

        init(_ schedule: KeySchedule) { self.schedule = schedule }

        /// How many messages this context has opened.
        public var sequenceNumber: UInt64 { schedule.sequenceNumber }

        /// Context.Open: the plaintext of the next message, or `openFailed` (and no part of the
        /// plaintext) when it does not authenticate; a failed open does not advance the sequence.
        public mutating func open(_ ciphertext: [UInt8], aad: [UInt8]) throws(HPKEError) -> [UInt8] {
            let nonce = try schedule.nextNonce()
            let plaintext: [UInt8]
            do { plaintext = try ChaChaPoly.open(ciphertext, key: schedule.key, nonce: nonce, aad: aad) } catch {
                switch error {
                case .authenticationFailed, .malformed: throw .openFailed
                default: throw .crypto(error)
                }
            }
            schedule.sequenceNumber += 1
            return plaintext
        }

        /// Context.Export: the same secret the sender's context exports.
        public func export(context: [UInt8], length: Int) throws(HPKEError) -> [UInt8] {
            try schedule.export(context: context, length: length)
        }
    }
}
