import CloudSyncCore
import TestSupport
import Testing

/// Seed 000 with OTP tokens: sync off by default, turned on, off with the cloud copy deleted,
/// on again; HOTP counters merging by maximum; no secret in the cloud in plaintext.
@Suite("otp sync: seed 000 on two devices (end to end)")
struct OTPSyncTests {
    let home = TemporaryDirectory("otp-sync")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_PASSPHRASE": "correct horse battery staple"]) }
    let zone = "com.apple.coredata.cloudkit.zone"

    func cloudZones() throws -> [String] {
        try cli.exec(["zone", "list", "--json"]).json()["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue } ?? []
    }

    func cloudBytes() -> [UInt8] {
        ["", "-wal", "-shm"].flatMap { TemporaryDirectory.readBytes(home.file("cloud.sqlite" + $0)) ?? [] }
    }

    func counter(_ name: String, _ device: String) throws -> Int64? {
        try cli.exec(["otp", "list", "--json"], device: device).json()["tokens"]?.arrayValue?
            .first { $0["name"]?.stringValue == name }?["counter"]?.int64Value
    }

    @Test func theSeedStory() throws {
        // Off by default: tokens stay on the laptop.
        let secret = "HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ"
        #expect(cli.exec(["otp", "add", "--issuer", "Initech", "--account-name", "peter@initech.example"], device: "laptop",
                        stdin: secret).status == 0)
        #expect(cli.exec(["otp", "add", "vpn", "--type", "hotp"], device: "laptop", stdin: rfcSecret).status == 0)
        let off = try cli.exec(["otp", "sync", "--json"], device: "laptop").json()
        #expect(off["syncEnabled"] == .bool(false) && off["pending"] == .int(2))
        #expect(try cloudZones() == ["_defaultZone"])

        // On: what was recorded while off goes up; the phone gets it, encrypted in the cloud.
        let on = cli.exec(["otp", "sync", "on", "--json"], device: "laptop")
        #expect(on.status == 0, "\(on.stderr)")
        #expect(try on.json()["saved"] == .int(2))
        let phone = cli.exec(["otp", "sync"], device: "phone")
        #expect(phone.status == 0, "\(phone.stderr)")
        #expect(try cli.tokenNames("phone") == ["Initech:peter@initech.example", "vpn"])
        #expect(cli.code("initech", at: 2_000_000_000, device: "phone") == cli.code("initech", at: 2_000_000_000, device: "laptop"))
        let cloud = try cli.exec(["record", "query", "OTPToken", "--zone", zone, "--json"]).json()["records"]?.arrayValue ?? []
        #expect(cloud.count == 2)
        for record in cloud {
            for field in ["secret", "name", "issuer", "account", "note"] {
                #expect(record["fields"]?[field]?["type"]?.stringValue == "ENCRYPTED_BYTES", "\(field) is encrypted")
            }
            #expect(record["fields"]?["counter"]?["type"]?.stringValue == "INT64")
        }
        let raw = cloudBytes()
        #expect(!raw.isEmpty)
        let secretBytes = Array("12345678901234567890".utf8)
        for needle in [Array(secret.utf8), Array(rfcSecret.utf8), secretBytes, Array("peter@initech.example".utf8),
                       Array(Base64.encode(secretBytes).utf8)] {
            #expect(!contains(raw, needle), "the cloud files hold \(String(decoding: needle, as: UTF8.self)) in plaintext")
        }

        // HOTP on both devices while apart: the laptop uses 3 codes, the phone 1. Whoever syncs
        // first, the higher counter wins and no code is ever offered twice.
        #expect((0..<3).map { _ in cli.exec(["otp", "code", "vpn", "-q"], device: "laptop").out } == ["755224", "287082", "359152"])
        #expect(cli.exec(["otp", "code", "vpn", "-q"], device: "phone").out == "755224")
        #expect(cli.exec(["otp", "sync"], device: "phone").status == 0)
        let merge = cli.exec(["otp", "sync", "--json"], device: "laptop")
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try merge.json()["conflicts"]?.arrayValue?.first?["resolution"]?.stringValue?.contains("HOTP counter 3 kept") == true)
        #expect(cli.exec(["otp", "sync"], device: "phone").status == 0)
        #expect(try counter("vpn", "laptop") == 3 && counter("vpn", "phone") == 3)
        #expect(cli.exec(["otp", "code", "vpn", "-q"], device: "phone").out == "969429", "counter 3 on the phone")
        // The other order: the laptop (lower now) syncs after the phone moved further.
        #expect(cli.exec(["otp", "code", "vpn", "-q"], device: "laptop").out == "969429")
        #expect(cli.exec(["otp", "code", "vpn", "-q"], device: "phone").out == "338314")
        #expect(cli.exec(["otp", "code", "vpn", "-q"], device: "phone").out == "254676")
        #expect(cli.exec(["otp", "sync"], device: "laptop").status == 0)
        #expect(cli.exec(["otp", "sync"], device: "phone").status == 0)
        #expect(cli.exec(["otp", "sync"], device: "laptop").status == 0)
        #expect(try counter("vpn", "laptop") == 6 && counter("vpn", "phone") == 6)

        // Off with the cloud copy deleted: every device keeps its tokens, the phone stops.
        #expect(cli.exec(["otp", "sync", "off", "--delete-cloud-data"], device: "laptop").status == 64, "needs --yes off a terminal")
        let deleted = cli.exec(["otp", "sync", "off", "--delete-cloud-data", "--yes", "--json"], device: "laptop")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        // Zone dictionaries, as zone delete prints a deleted zone.
        let deletedZones = try #require(try deleted.json()["deletedZones"]?.arrayValue)
        #expect(deletedZones.map { $0["zoneID"]?["zoneName"] } == [.string(zone)])
        #expect(deletedZones.allSatisfy { $0["deleted"] == .bool(true) && $0["zoneID"]?["ownerRecordName"]?.stringValue?.hasPrefix("_") == true })
        #expect(try cloudZones() == ["_defaultZone"])
        #expect(try cli.exec(["otp", "sync", "--json"], device: "phone").json()["syncEnabled"] == .bool(false))
        #expect(try cli.tokenNames("phone") == ["Initech:peter@initech.example", "vpn"])
        #expect(try cli.tokenNames("laptop") == ["Initech:peter@initech.example", "vpn"])
        #expect(cli.code("initech", at: 59, device: "phone") == cli.code("initech", at: 59, device: "laptop"), "codes work offline")

        // Edits while off keep recording; on again re-creates the zone and everything meets.
        #expect(cli.exec(["otp", "add", "late", "--issuer", "Late"], device: "phone", stdin: "JBSWY3DPEHPK3PXPJBSWY3DP").status == 0)
        let again = cli.exec(["otp", "sync", "on"], device: "laptop")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try cloudZones().contains(zone))
        #expect(cli.exec(["otp", "sync"], device: "phone").status == 0)
        #expect(cli.exec(["otp", "sync"], device: "laptop").status == 0)
        #expect(try cli.tokenNames("laptop") == ["Initech:peter@initech.example", "late", "vpn"])
        // A removal while sync is on reaches the other device.
        #expect(cli.exec(["otp", "remove", "initech", "--yes"], device: "laptop").status == 0)
        #expect(cli.exec(["otp", "sync"], device: "laptop").status == 0)
        #expect(cli.exec(["otp", "sync"], device: "phone").status == 0)
        #expect(try cli.tokenNames("laptop") == ["late", "vpn"])
        #expect(try cli.tokenNames("phone") == (try cli.tokenNames("laptop")))
        #expect(!contains(cloudBytes(), Array("JBSWY3DPEHPK3PXPJBSWY3DP".utf8)))
    }

    @Test func syncNeedsThePassphraseToSendSecrets() throws {
        let bare = BinaryRunner(home: home.path)
        #expect(bare.exec(["otp", "add", "x"], device: "laptop", stdin: rfcSecret).status == 0)
        #expect(bare.exec(["otp", "sync", "on"], device: "laptop").status == 64, "no passphrase off a terminal (a missing secret input): nothing is sent")
        #expect(try !cloudZones().contains(zone), "no zone, no records")
        #expect(!contains(cloudBytes(), Array(rfcSecret.utf8)) && !contains(cloudBytes(), Array("12345678901234567890".utf8)))
        #expect(try cli.exec(["otp", "sync", "--json"], device: "laptop").json()["syncEnabled"] == .bool(false),
                "the failed 'on' left sync off")
        #expect(cli.exec(["otp", "sync", "on"], device: "laptop").status == 0, "with the passphrase it goes")
        #expect(try cli.exec(["record", "query", "OTPToken", "--zone", zone, "--json"]).json()["records"]?.arrayValue?.count == 1)
    }
}
