@testable import CloudSyncCrypto
import Testing

@Suite("HPKE: sealing, opening and refusing")
struct HPKETests {
    let info = Array("cloudsync message v1".utf8)
    let aad = Array("Message-1234".utf8)
    let text = Array("meet at noon".utf8)

    @Test func baseAndAuthRoundTrip() throws {
        let alice = try X25519PrivateKey.generate(), bob = try X25519PrivateKey.generate()
        let base = try HPKE.sealBase(text, to: bob.publicKey, info: info, aad: aad)
        #expect(base.encapsulatedKey.count == 32 && base.ciphertext.count == text.count + 16)
        #expect(try HPKE.openBase(base, recipient: bob, info: info, aad: aad) == text)
        let auth = try HPKE.sealAuth(text, to: bob.publicKey, from: alice, info: info, aad: aad)
        #expect(try HPKE.openAuth(auth, recipient: bob, from: alice.publicKey, info: info, aad: aad) == text)
        // A fresh ephemeral key every time: the same message never seals the same way twice.
        let again = try HPKE.sealAuth(text, to: bob.publicKey, from: alice, info: info, aad: aad)
        #expect(again.encapsulatedKey != auth.encapsulatedKey && again.ciphertext != auth.ciphertext)
    }

    /// Wrong sender, third party, another record's AAD, another info, any flipped bit: all
    /// `openFailed`, and no error text carries the plaintext.
    @Test func everyMismatchFailsToOpen() throws {
        let alice = try X25519PrivateKey.generate(), bob = try X25519PrivateKey.generate(), eve = try X25519PrivateKey.generate()
        let sealed = try HPKE.sealAuth(text, to: bob.publicKey, from: alice, info: info, aad: aad)
        var failures: [HPKEError] = []
        func attempt(_ open: () throws -> [UInt8]) {
            do {
                _ = try open()
                Issue.record("opened when it should not")
            } catch let error as HPKEError { failures.append(error) } catch { Issue.record("unexpected \(error)") }
        }
        attempt { try HPKE.openAuth(sealed, recipient: bob, from: eve.publicKey, info: info, aad: aad) }
        attempt { try HPKE.openAuth(sealed, recipient: eve, from: alice.publicKey, info: info, aad: aad) }
        attempt { try HPKE.openAuth(sealed, recipient: bob, from: alice.publicKey, info: info, aad: Array("Message-9".utf8)) }
        attempt { try HPKE.openAuth(sealed, recipient: bob, from: alice.publicKey, info: Array("other".utf8), aad: aad) }
        // An auth-mode message does not open in base mode, nor a base one in auth mode.
        attempt { try HPKE.openBase(sealed, recipient: bob, info: info, aad: aad) }
        let base = try HPKE.sealBase(text, to: bob.publicKey, info: info, aad: aad)
        attempt { try HPKE.openAuth(base, recipient: bob, from: alice.publicKey, info: info, aad: aad) }
        for index in sealed.ciphertext.indices {
            var ciphertext = sealed.ciphertext
            ciphertext[index] ^= 1
            let tampered = HPKE.Sealed(encapsulatedKey: sealed.encapsulatedKey, ciphertext: ciphertext)
            attempt { try HPKE.openAuth(tampered, recipient: bob, from: alice.publicKey, info: info, aad: aad) }
        }
        for index in sealed.encapsulatedKey.indices {
            var enc = sealed.encapsulatedKey
            enc[index] ^= 1
            let tampered = HPKE.Sealed(encapsulatedKey: enc, ciphertext: sealed.ciphertext)
            attempt { try HPKE.openAuth(tampered, recipient: bob, from: alice.publicKey, info: info, aad: aad) }
        }
        #expect(failures.count == 6 + sealed.ciphertext.count + 32)
        for failure in failures {
            #expect(failure == .openFailed || { if case .invalidEncapsulatedKey = failure { true } else { false } }())
            #expect(failure.description.contains("could not be authenticated"))
            #expect(!failure.description.contains("noon"))
        }
    }

    @Test func malformedEncapsulatedKeysAreRefused() throws {
        let bob = try X25519PrivateKey.generate(), alice = try X25519PrivateKey.generate()
        for enc in [[], [UInt8](repeating: 7, count: 31), [UInt8](repeating: 0, count: 32)] {
            let sealed = HPKE.Sealed(encapsulatedKey: enc, ciphertext: [UInt8](repeating: 0, count: 40))
            #expect {
                try HPKE.openAuth(sealed, recipient: bob, from: alice.publicKey, info: info, aad: aad)
            } throws: { error in
                if case HPKEError.invalidEncapsulatedKey = error { true } else { false }
            }
        }
        // Too short to hold a tag.
        let short = HPKE.Sealed(encapsulatedKey: alice.publicKey.rawRepresentation, ciphertext: [1, 2, 3])
        #expect(throws: HPKEError.openFailed) { try HPKE.openBase(short, recipient: bob, info: info, aad: aad) }
    }

    /// Encrypting to (or as) a low-order key fails before anything is sealed.
    @Test func lowOrderRecipientIsRefused() throws {
        let zero = try X25519PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 32))
        #expect {
            try HPKE.sealBase(text, to: zero, info: info, aad: aad)
        } throws: { error in
            if case HPKEError.encapsulationFailed = error { true } else { false }
        }
    }

    /// Messages of one context open in order, each under its own nonce.
    @Test func multiMessageContext() throws {
        let alice = try X25519PrivateKey.generate(), bob = try X25519PrivateKey.generate()
        var (enc, sender) = try HPKE.setupAuthS(recipient: bob.publicKey, info: info, sender: alice)
        var recipient = try HPKE.setupAuthR(encapsulatedKey: enc, recipient: bob, info: info, sender: alice.publicKey)
        let messages = (0..<5).map { Array("message \($0)".utf8) }
        var sealed: [[UInt8]] = []
        for message in messages { sealed.append(try sender.seal(message, aad: aad)) }
        #expect(sender.sequenceNumber == 5)
        // Out of order: refused, and the sequence does not move.
        #expect(throws: HPKEError.openFailed) { try recipient.open(sealed[1], aad: aad) }
        for (message, ciphertext) in zip(messages, sealed) { #expect(try recipient.open(ciphertext, aad: aad) == message) }
        #expect(try sender.export(context: [1], length: 16) == recipient.export(context: [1], length: 16))
    }

    /// The sequence number never wraps: at its end the context refuses, instead of reusing a nonce.
    @Test func sequenceOverflowIsRefused() throws {
        let bob = try X25519PrivateKey.generate()
        var (enc, sender) = try HPKE.setupBaseS(recipient: bob.publicKey, info: info)
        var recipient = try HPKE.setupBaseR(encapsulatedKey: enc, recipient: bob, info: info)
        sender.schedule.sequenceNumber = UInt64.max - 1
        recipient.schedule.sequenceNumber = UInt64.max - 1
        let last = try sender.seal(text, aad: aad)
        #expect(try recipient.open(last, aad: aad) == text)
        #expect(throws: HPKEError.messageLimitReached) { try sender.seal(text, aad: aad) }
        #expect(throws: HPKEError.messageLimitReached) { try recipient.open(last, aad: aad) }
        // The nonce of the last message is base_nonce XOR 2^64 - 2 in the low 8 bytes.
        let nonce = sender.schedule.nonce(for: UInt64.max - 1)
        #expect(Array(nonce[0..<4]) == Array(sender.schedule.baseNonce[0..<4]))
        #expect(zip(nonce[4...], sender.schedule.baseNonce[4...]).map { $0 ^ $1 } == [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe])
    }

    @Test func pskInputsAreChecked() throws {
        let bob = try X25519PrivateKey.generate()
        let psk = [UInt8](repeating: 9, count: 32), id = Array("id".utf8)
        let invalid: [() throws -> Void] = [
            { _ = try HPKE.setupPSKS(recipient: bob.publicKey, info: info, psk: psk, pskID: []) },
            { _ = try HPKE.setupPSKS(recipient: bob.publicKey, info: info, psk: [], pskID: id) },
            { _ = try HPKE.setupPSKS(recipient: bob.publicKey, info: info, psk: [1, 2], pskID: id) },
            { _ = try HPKE.setupS(mode: .base, recipient: bob.publicKey, info: info, psk: psk, pskID: id) },
        ]
        for setup in invalid {
            #expect { try setup() } throws: { error in if case HPKEError.invalidPSK = error { true } else { false } }
        }
        var (enc, sender) = try HPKE.setupPSKS(recipient: bob.publicKey, info: info, psk: psk, pskID: id)
        var recipient = try HPKE.setupPSKR(encapsulatedKey: enc, recipient: bob, info: info, psk: psk, pskID: id)
        #expect(try recipient.open(sender.seal(text, aad: aad), aad: aad) == text)
        let alice = try X25519PrivateKey.generate()
        (enc, sender) = try HPKE.setupAuthPSKS(recipient: bob.publicKey, info: info, psk: psk, pskID: id, sender: alice)
        recipient = try HPKE.setupAuthPSKR(encapsulatedKey: enc, recipient: bob, info: info, psk: psk, pskID: id, sender: alice.publicKey)
        #expect(try recipient.open(sender.seal(text, aad: aad), aad: aad) == text)
    }

    @Test func errorMessagesAreOneLine() {
        let errors: [HPKEError] = [.openFailed, .invalidEncapsulatedKey("x"), .encapsulationFailed("x"), .invalidPSK("x"),
                                   .messageLimitReached, .crypto(.library("x"))]
        for error in errors { #expect(!error.description.isEmpty && !error.description.contains("\n")) }
    }
}
