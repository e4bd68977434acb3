@testable import CloudSyncCrypto
import Testing

/// One of RFC 9180's published test vectors, as printed in its Appendix A.2
/// (DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305), copied byte for byte.
struct HPKEVector: Sendable, CustomTestStringConvertible {
    struct Encryption: Sendable {
        let sequence: UInt64
        let aad: String
        let nonce: String
        let ct: String
    }

    let name: String
    let mode: HPKE.Mode
    let ikmE, skEm, pkEm, ikmR, skRm, pkRm: String
    var ikmS = "", skSm = "", pkSm = ""
    var psk = "", pskID = ""
    let enc, sharedSecret, keyScheduleContext, secret, key, baseNonce, exporterSecret: String
    let encryptions: [Encryption]
    /// (exporter_context, exported_value), L = 32.
    let exports: [(String, String)]

    var testDescription: String { name }

    /// info and pt are the same in every vector of the appendix.
    static let info = "4f6465206f6e2061204772656369616e2055726e"
    static let pt = "4265617574792069732074727574682c20747275746820626561757479"

    /// A.2.1. Base Setup Information.
    static let base = HPKEVector(
        name: "A.2.1 base", mode: .base,
        ikmE: "909a9b35d3dc4713a5e72a4da274b55d3d3821a37e5d099e74a647db583a904b",
        skEm: "f4ec9b33b792c372c1d2c2063507b684ef925b8c75a42dbcbf57d63ccd381600",
        pkEm: "1afa08d3dec047a643885163f1180476fa7ddb54c6a8029ea33f95796bf2ac4a",
        ikmR: "1ac01f181fdf9f352797655161c58b75c656a6cc2716dcb66372da835542e1df",
        skRm: "8057991eef8f1f1af18f4a9491d16a1ce333f695d4db8e38da75975c4478e0fb",
        pkRm: "4310ee97d88cc1f088a5576c77ab0cf5c3ac797f3d95139c6c84b5429c59662a",
        enc: "1afa08d3dec047a643885163f1180476fa7ddb54c6a8029ea33f95796bf2ac4a",
        sharedSecret: "0bbe78490412b4bbea4812666f7916932b828bba79942424abb65244930d69a7",
        keyScheduleContext: "00431df6cd95e11ff49d7013563baf7f11588c75a6611ee2a4404a49306ae4cfc5b69c5718a60cc5876c358d3f7fc31ddb598503f67be58ea1e798c0bb19eb9796",
        secret: "5b9cd775e64b437a2335cf499361b2e0d5e444d5cb41a8a53336d8fe402282c6",
        key: "ad2744de8e17f4ebba575b3f5f5a8fa1f69c2a07f6e7500bc60ca6e3e3ec1c91",
        baseNonce: "5c4d98150661b848853b547f",
        exporterSecret: "a3b010d4994890e2c6968a36f64470d3c824c8f5029942feb11e7a74b2921922",
        encryptions: [
            .init(sequence: 0, aad: "436f756e742d30", nonce: "5c4d98150661b848853b547f",
                  ct: "1c5250d8034ec2b784ba2cfd69dbdb8af406cfe3ff938e131f0def8c8b60b4db21993c62ce81883d2dd1b51a28"),
            .init(sequence: 1, aad: "436f756e742d31", nonce: "5c4d98150661b848853b547e",
                  ct: "6b53c051e4199c518de79594e1c4ab18b96f081549d45ce015be002090bb119e85285337cc95ba5f59992dc98c"),
            .init(sequence: 2, aad: "436f756e742d32", nonce: "5c4d98150661b848853b547d",
                  ct: "71146bd6795ccc9c49ce25dda112a48f202ad220559502cef1f34271e0cb4b02b4f10ecac6f48c32f878fae86b"),
            .init(sequence: 4, aad: "436f756e742d34", nonce: "5c4d98150661b848853b547b",
                  ct: "63357a2aa291f5a4e5f27db6baa2af8cf77427c7c1a909e0b37214dd47db122bb153495ff0b02e9e54a50dbe16"),
            .init(sequence: 255, aad: "436f756e742d323535", nonce: "5c4d98150661b848853b5480",
                  ct: "18ab939d63ddec9f6ac2b60d61d36a7375d2070c9b683861110757062c52b8880a5f6b3936da9cd6c23ef2a95c"),
            .init(sequence: 256, aad: "436f756e742d323536", nonce: "5c4d98150661b848853b557f",
                  ct: "7a4a13e9ef23978e2c520fd4d2e757514ae160cd0cd05e556ef692370ca53076214c0c40d4c728d6ed9e727a5b"),
        ],
        exports: [
            ("", "4bbd6243b8bb54cec311fac9df81841b6fd61f56538a775e7c80a9f40160606e"),
            ("00", "8c1df14732580e5501b00f82b10a1647b40713191b7c1240ac80e2b68808ba69"),
            ("54657374436f6e74657874", "5acb09211139c43b3090489a9da433e8a30ee7188ba8b0a9a1ccf0c229283e53"),
        ])

    /// A.2.2. PSK Setup Information.
    static let psk = HPKEVector(
        name: "A.2.2 psk", mode: .psk,
        ikmE: "35706a0b09fb26fb45c39c2f5079c709c7cf98e43afa973f14d88ece7e29c2e3",
        skEm: "0c35fdf49df7aa01cd330049332c40411ebba36e0c718ebc3edf5845795f6321",
        pkEm: "2261299c3f40a9afc133b969a97f05e95be2c514e54f3de26cbe5644ac735b04",
        ikmR: "26b923eade72941c8a85b09986cdfa3f1296852261adedc52d58d2930269812b",
        skRm: "77d114e0212be51cb1d76fa99dd41cfd4d0166b08caa09074430a6c59ef17879",
        pkRm: "13640af826b722fc04feaa4de2f28fbd5ecc03623b317834e7ff4120dbe73062",
        psk: "0247fd33b913760fa1fa51e1892d9f307fbe65eb171e8132c2af18555a738b82",
        pskID: "456e6e796e20447572696e206172616e204d6f726961",
        enc: "2261299c3f40a9afc133b969a97f05e95be2c514e54f3de26cbe5644ac735b04",
        sharedSecret: "4be079c5e77779d0215b3f689595d59e3e9b0455d55662d1f3666ec606e50ea7",
        keyScheduleContext: "016870c4c76ca38ae43efbec0f2377d109499d7ce73f4a9e1ec37f21d3d063b97cb69c5718a60cc5876c358d3f7fc31ddb598503f67be58ea1e798c0bb19eb9796",
        secret: "16974354c497c9bd24c000ceed693779b604f1944975b18c442d373663f4a8cc",
        key: "600d2fdb0313a7e5c86a9ce9221cd95bed069862421744cfb4ab9d7203a9c019",
        baseNonce: "112e0465562045b7368653e7",
        exporterSecret: "73b506dc8b6b4269027f80b0362def5cbb57ee50eed0c2873dac9181f453c5ac",
        encryptions: [
            .init(sequence: 0, aad: "436f756e742d30", nonce: "112e0465562045b7368653e7",
                  ct: "4a177f9c0d6f15cfdf533fb65bf84aecdc6ab16b8b85b4cf65a370e07fc1d78d28fb073214525276f4a89608ff"),
            .init(sequence: 1, aad: "436f756e742d31", nonce: "112e0465562045b7368653e6",
                  ct: "5c3cabae2f0b3e124d8d864c116fd8f20f3f56fda988c3573b40b09997fd6c769e77c8eda6cda4f947f5b704a8"),
            .init(sequence: 255, aad: "436f756e742d323535", nonce: "112e0465562045b736865318",
                  ct: "2414d0788e4bc39a59a26d7bd5d78e111c317d44c37bd5a4c2a1235f2ddc2085c487d406490e75210c958724a7"),
        ],
        exports: [
            ("", "813c1bfc516c99076ae0f466671f0ba5ff244a41699f7b2417e4c59d46d39f40"),
            ("54657374436f6e74657874", "ad40e3ae14f21c99bfdebc20ae14ab86f4ca2dc9a4799d200f43a25f99fa78ae"),
        ])

    /// A.2.3. Auth Setup Information: mode_auth, the mode cloudsync's messages use.
    static let auth = HPKEVector(
        name: "A.2.3 auth", mode: .auth,
        ikmE: "938d3daa5a8904540bc24f48ae90eed3f4f7f11839560597b55e7c9598c996c0",
        skEm: "c94619e1af28971c8fa7957192b7e62a71ca2dcdde0a7cc4a8a9e741d600ab13",
        pkEm: "f7674cc8cd7baa5872d1f33dbaffe3314239f6197ddf5ded1746760bfc847e0e",
        ikmR: "64835d5ee64aa7aad57c6f2e4f758f7696617f8829e70bc9ac7a5ef95d1c756c",
        skRm: "3ca22a6d1cda1bb9480949ec5329d3bf0b080ca4c45879c95eddb55c70b80b82",
        pkRm: "1a478716d63cb2e16786ee93004486dc151e988b34b475043d3e0175bdb01c44",
        ikmS: "9d8f94537d5a3ddef71234c0baedfad4ca6861634d0b94c3007fed557ad17df6",
        skSm: "2def0cb58ffcf83d1062dd085c8aceca7f4c0c3fd05912d847b61f3e54121f05",
        pkSm: "f0f4f9e96c54aeed3f323de8534fffd7e0577e4ce269896716bcb95643c8712b",
        enc: "f7674cc8cd7baa5872d1f33dbaffe3314239f6197ddf5ded1746760bfc847e0e",
        sharedSecret: "d2d67828c8bc9fa661cf15a31b3ebf1febe0cafef7abfaaca580aaf6d471e3eb",
        keyScheduleContext: "02431df6cd95e11ff49d7013563baf7f11588c75a6611ee2a4404a49306ae4cfc5b69c5718a60cc5876c358d3f7fc31ddb598503f67be58ea1e798c0bb19eb9796",
        secret: "3022dfc0a81d6e09a2e6daeeb605bb1ebb9ac49535540d9a4c6560064a6c6da8",
        key: "b071fd1136680600eb447a845a967d35e9db20749cdf9ce098bcc4deef4b1356",
        baseNonce: "d20577dff16d7cea2c4bf780",
        exporterSecret: "be2d93b82071318cdb88510037cf504344151f2f9b9da8ab48974d40a2251dd7",
        encryptions: [
            .init(sequence: 0, aad: "436f756e742d30", nonce: "d20577dff16d7cea2c4bf780",
                  ct: "ab1a13c9d4f01a87ec3440dbd756e2677bd2ecf9df0ce7ed73869b98e00c09be111cb9fdf077347aeb88e61bdf"),
            .init(sequence: 1, aad: "436f756e742d31", nonce: "d20577dff16d7cea2c4bf781",
                  ct: "3265c7807ffff7fdace21659a2c6ccffee52a26d270c76468ed74202a65478bfaedfff9c2b7634e24f10b71016"),
            .init(sequence: 2, aad: "436f756e742d32", nonce: "d20577dff16d7cea2c4bf782",
                  ct: "3aadee86ad2a05081ea860033a9d09dbccb4acac2ded0891da40f51d4df19925f7a767b076a5cbc9355c8fd35e"),
            .init(sequence: 4, aad: "436f756e742d34", nonce: "d20577dff16d7cea2c4bf784",
                  ct: "502ecccd5c2be3506a081809cc58b43b94f77cbe37b8b31712d9e21c9e61aa6946a8e922f54eae630f88eb8033"),
            .init(sequence: 255, aad: "436f756e742d323535", nonce: "d20577dff16d7cea2c4bf77f",
                  ct: "652e597ba20f3d9241cda61f33937298b1169e6adf72974bbe454297502eb4be132e1c5064702fc165c2ddbde8"),
            .init(sequence: 256, aad: "436f756e742d323536", nonce: "d20577dff16d7cea2c4bf680",
                  ct: "3be14e8b3bbd1028cf2b7d0a691dbbeff71321e7dec92d3c2cfb30a0994ab246af76168480285a60037b4ba13a"),
        ],
        exports: [
            ("", "070cffafd89b67b7f0eeb800235303a223e6ff9d1e774dce8eac585c8688c872"),
            ("00", "2852e728568d40ddb0edde284d36a4359c56558bb2fb8837cd3d92e46a3a14a8"),
            ("54657374436f6e74657874", "1df39dc5dd60edcbf5f9ae804e15ada66e885b28ed7929116f768369a3f950ee"),
        ])
}

@Suite("HPKE: RFC 9180 test vectors, A.2 (X25519, HKDF-SHA256, ChaCha20-Poly1305)")
struct HPKEVectorTests {
    /// DeriveKeyPair reproduces every published key from its ikm, and the public halves match.
    @Test(arguments: [HPKEVector.base, HPKEVector.psk, HPKEVector.auth])
    func deriveKeyPair(_ v: HPKEVector) throws {
        let pairs = [(v.ikmE, v.skEm, v.pkEm), (v.ikmR, v.skRm, v.pkRm)] + (v.ikmS.isEmpty ? [] : [(v.ikmS, v.skSm, v.pkSm)])
        for (ikm, sk, pk) in pairs {
            let key = try HPKE.DHKEM.deriveKeyPair(ikm: hex(ikm))
            #expect(Hex.encode(key.rawRepresentation) == sk)
            #expect(Hex.encode(key.publicKey.rawRepresentation) == pk)
            #expect(Hex.encode(try X25519PrivateKey(rawRepresentation: hex(sk)).publicKey.rawRepresentation) == pk)
        }
    }

    /// The KEM: with the vector's ephemeral key, Encap/AuthEncap give its enc and shared_secret,
    /// and the recipient's Decap/AuthDecap gives the same secret.
    @Test(arguments: [HPKEVector.base, HPKEVector.psk, HPKEVector.auth])
    func kemSharedSecret(_ v: HPKEVector) throws {
        let ephemeral = try X25519PrivateKey(rawRepresentation: hex(v.skEm))
        let recipient = try X25519PrivateKey(rawRepresentation: hex(v.skRm))
        let sender = v.skSm.isEmpty ? nil : try X25519PrivateKey(rawRepresentation: hex(v.skSm))
        let (secret, enc) = try HPKE.DHKEM.encapsulate(to: recipient.publicKey, sender: sender, ephemeral: ephemeral)
        #expect(Hex.encode(enc) == v.enc)
        #expect(Hex.encode(secret) == v.sharedSecret)
        #expect(Hex.encode(try HPKE.DHKEM.decapsulate(hex(v.enc), recipient: recipient, sender: sender?.publicKey)) == v.sharedSecret)
    }

    /// The key schedule: key, base_nonce and exporter_secret from shared_secret, mode, info, psk.
    @Test(arguments: [HPKEVector.base, HPKEVector.psk, HPKEVector.auth])
    func keySchedule(_ v: HPKEVector) throws {
        let context = [v.mode.rawValue] + HPKE.labeledExtract(salt: [], label: "psk_id_hash", ikm: hex(v.pskID), suite: HPKE.suiteID)
            + HPKE.labeledExtract(salt: [], label: "info_hash", ikm: hex(HPKEVector.info), suite: HPKE.suiteID)
        #expect(Hex.encode(context) == v.keyScheduleContext)
        let schedule = try HPKE.keySchedule(mode: v.mode, sharedSecret: hex(v.sharedSecret), info: hex(HPKEVector.info),
                                            psk: hex(v.psk), pskID: hex(v.pskID))
        #expect(Hex.encode(schedule.key) == v.key)
        #expect(Hex.encode(schedule.baseNonce) == v.baseNonce)
        #expect(Hex.encode(schedule.exporterSecret) == v.exporterSecret)
        #expect(Hex.encode(HPKE.labeledExtract(salt: hex(v.sharedSecret), label: "secret", ikm: hex(v.psk), suite: HPKE.suiteID)) == v.secret)
    }

    /// The whole sender side through the public setup (ephemeral key fixed by the testing hook):
    /// the enc, then each listed encryption's nonce and ciphertext at its sequence number, then
    /// the exported values; and the recipient side opens every ciphertext.
    @Test(arguments: [HPKEVector.base, HPKEVector.psk, HPKEVector.auth])
    func encryptionsAndExports(_ v: HPKEVector) throws {
        let ephemeral = try HPKE.DHKEM.deriveKeyPair(ikm: hex(v.ikmE))
        let recipient = try HPKE.DHKEM.deriveKeyPair(ikm: hex(v.ikmR))
        let sender = v.ikmS.isEmpty ? nil : try HPKE.DHKEM.deriveKeyPair(ikm: hex(v.ikmS))
        var (enc, sending) = try HPKE.setupS(mode: v.mode, recipient: recipient.publicKey, info: hex(HPKEVector.info),
                                             psk: hex(v.psk), pskID: hex(v.pskID), sender: sender, ephemeral: ephemeral)
        #expect(Hex.encode(enc) == v.enc)
        var receiving = try HPKE.setupR(mode: v.mode, encapsulatedKey: enc, recipient: recipient, info: hex(HPKEVector.info),
                                        psk: hex(v.psk), pskID: hex(v.pskID), sender: sender?.publicKey)
        // Seal in sequence, as a sender does: the messages not listed are sealed and dropped.
        for encryption in v.encryptions {
            while sending.sequenceNumber < encryption.sequence {
                _ = try sending.seal(hex(HPKEVector.pt), aad: [])
                receiving.schedule.sequenceNumber += 1
            }
            #expect(Hex.encode(sending.schedule.nonce(for: sending.sequenceNumber)) == encryption.nonce)
            let ct = try sending.seal(hex(HPKEVector.pt), aad: hex(encryption.aad))
            #expect(Hex.encode(ct) == encryption.ct, "sequence \(encryption.sequence)")
            #expect(try receiving.open(hex(encryption.ct), aad: hex(encryption.aad)) == hex(HPKEVector.pt))
        }
        for (context, value) in v.exports {
            #expect(Hex.encode(try sending.export(context: hex(context), length: 32)) == value)
            #expect(Hex.encode(try receiving.export(context: hex(context), length: 32)) == value)
        }
    }

    /// A recipient that sets up from the published enc (and, in auth mode, the published sender
    /// public key only) opens the published ciphertexts: nothing of ours on the sending side.
    @Test func authRecipientOpensPublishedCiphertexts() throws {
        let v = HPKEVector.auth
        var context = try HPKE.setupAuthR(encapsulatedKey: hex(v.enc), recipient: X25519PrivateKey(rawRepresentation: hex(v.skRm)),
                                          info: hex(HPKEVector.info), sender: X25519PublicKey(rawRepresentation: hex(v.pkSm)))
        #expect(try context.open(hex(v.encryptions[0].ct), aad: hex(v.encryptions[0].aad)) == hex(HPKEVector.pt))
        #expect(try context.open(hex(v.encryptions[1].ct), aad: hex(v.encryptions[1].aad)) == hex(HPKEVector.pt))
        // Out of order (message 4 at sequence 2): not authentic at this position.
        #expect(throws: HPKEError.openFailed) { try context.open(hex(v.encryptions[3].ct), aad: hex(v.encryptions[3].aad)) }
        #expect(context.sequenceNumber == 2)
    }
}
