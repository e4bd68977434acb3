import CloudSyncCore
import TestSupport
import Testing

@Suite("Encrypted fields (end to end)")
struct EncryptedFieldTests {
    let home = TemporaryDirectory("crypto-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_PASSPHRASE": "correct horse"]) }
    let zone = "com.apple.coredata.cloudkit.zone"

    func setUp() {
        #expect(cli.run(["store", "sync", "on"], device: "laptop").status == 0)
        let put = cli.run(["store", "put", "Login", "bank", "--field", "user=alice", "--field", "password=Sup3rSecretPlaintext",
                           "--encrypt", "password"], device: "laptop")
        #expect(put.status == 0, "\(put.stderr)")
        let sync = cli.run(["store", "sync"], device: "laptop")
        #expect(sync.status == 0, "\(sync.stderr)")
    }

    @Test func roundTripAcrossDevicesWithOnlyCiphertextInTheCloud() throws {
        setUp()
        let phone = cli.run(["store", "sync"], device: "phone")
        #expect(phone.status == 0, "\(phone.stderr)")
        let record = try cli.run(["store", "get", "bank", "--json"], device: "phone").firstRecord()
        #expect(record["fields"]?["password"]?["value"]?.stringValue == "Sup3rSecretPlaintext")
        let cloud = try cli.run(["record", "get", "bank", "--zone", zone, "--json"]).firstRecord()
        #expect(cloud["fields"]?["password"]?["type"]?.stringValue == "ENCRYPTED_BYTES")
        #expect(cloud["fields"]?["user"]?["value"]?.stringValue == "alice")
        // The raw cloud files hold no plaintext of the encrypted field.
        for suffix in ["", "-wal"] {
            let bytes = TemporaryDirectory.readBytes(home.file("cloud.sqlite" + suffix)) ?? []
            #expect(!contains(bytes, Array("Sup3rSecretPlaintext".utf8)), "cloud.sqlite\(suffix) leaks the plaintext")
        }
        // The phone edits the secret: it is encrypted again (the phone learnt the mark).
        #expect(cli.run(["store", "put", "Login", "bank", "--field", "password=NewSecretValue"], device: "phone").status == 0)
        #expect(cli.run(["store", "sync"], device: "phone").status == 0)
        #expect(cli.run(["store", "sync"], device: "laptop").status == 0)
        #expect(try cli.run(["store", "get", "bank", "--json"], device: "laptop").firstRecord()["fields"]?["password"]?["value"]?.stringValue == "NewSecretValue")
        let after = try cli.run(["record", "get", "bank", "--zone", zone, "--json"]).firstRecord()
        #expect(after["fields"]?["password"]?["type"]?.stringValue == "ENCRYPTED_BYTES")
    }

    @Test func ciphertextMovedToAnotherRecordIsRejected() throws {
        setUp()
        let cloud = try cli.run(["record", "get", "bank", "--zone", zone, "--json"]).firstRecord()
        let box = try #require(cloud["fields"]?["password"]?["value"]?.stringValue)
        let fields = #"{"user": {"value": "mallory", "type": "STRING"}, "password": {"value": "\#(box)", "type": "ENCRYPTED_BYTES"}}"#
        #expect(cli.run(["record", "save", "Login", "stolen", "--zone", zone, "--fields-json", "-"], stdin: fields).status == 0)
        let pull = cli.run(["store", "sync"], device: "phone")
        #expect(pull.status == 65)
        #expect(pull.stderr.contains("failed to decrypt"))
        #expect(cli.run(["store", "get", "stolen"], device: "phone").status == 3, "nothing decrypted to garbage")
    }

    @Test func tamperedCiphertextIsRejected() throws {
        setUp()
        let cloud = try cli.run(["record", "get", "bank", "--zone", zone, "--json"]).firstRecord()
        var box = try #require(cloud["fields"]?["password"]?["value"]?.stringValue.flatMap(Base64.decode))
        box[box.count - 3] ^= 0x40
        let tag = try #require(cloud["recordChangeTag"]?.stringValue)
        let fields = #"{"user": {"value": "alice"}, "password": {"value": "\#(Base64.encode(box))", "type": "ENCRYPTED_BYTES"}}"#
        #expect(cli.run(["record", "save", "Login", "bank", "--zone", zone, "--change-tag", tag, "--fields-json", "-"], stdin: fields).status == 0)
        let pull = cli.run(["store", "sync"], device: "phone")
        #expect(pull.status == 65)
        #expect(pull.stderr.contains("failed to decrypt"))
    }

    @Test func wrongPassphraseMissingKeyAndPassphraseChange() throws {
        setUp()
        let wrong = cli.run(["store", "sync"], device: "tablet", env: ["CLOUDSYNC_PASSPHRASE": "battery staple"])
        #expect(wrong.status == 77)
        #expect(wrong.stderr.contains("wrong sync passphrase"))
        let none = BinaryRunner(home: home.path).run(["store", "sync"], device: "tablet")
        #expect(none.status == 77)
        #expect(none.stderr.contains("no data key") || none.stderr.contains("passphrase"))
        // Re-wrap under a new passphrase: the old one stops working, data still decrypts.
        let change = cli.run(["keys", "passphrase", "change"], device: "laptop", env: ["CLOUDSYNC_NEW_PASSPHRASE": "new phrase"])
        #expect(change.status == 0, "\(change.stderr)")
        #expect(cli.run(["keys", "unlock"], device: "tv").status == 77)
        #expect(cli.run(["keys", "unlock"], device: "tv", env: ["CLOUDSYNC_PASSPHRASE": "new phrase"]).status == 0)
        let tv = cli.run(["store", "sync"], device: "tv", env: ["CLOUDSYNC_PASSPHRASE": "new phrase"])
        #expect(tv.status == 0, "\(tv.stderr)")
        #expect(try cli.run(["store", "get", "bank", "--json"], device: "tv").firstRecord()["fields"]?["password"]?["value"]?.stringValue == "Sup3rSecretPlaintext")
        let status = try cli.run(["keys", "status", "--json"], device: "tv").json()
        #expect(status["unlocked"] == .bool(true) && status["accountHasKey"] == .bool(true))
        #expect(cli.run(["keys", "lock"], device: "tv").status == 0)
        #expect(try cli.run(["keys", "status", "--json"], device: "tv").json()["unlocked"] == .bool(false))
    }

    func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if Array(haystack[start..<start + needle.count]) == needle { return true }
        }
        return false
    }
}
