import CloudSyncCommands
import CloudSyncCore
import CloudSyncDevice
import CloudSyncOTP
import TestSupport
import Testing

/// `store sync` applies the OTP rules to the tokens in its zone, though the store's command module
/// imports no OTP module: the composition root (`CommandTable.storeSyncRules`) registers them.
@Suite("store sync keeps the OTP rules (registered at the composition root)")
struct StoreSyncOTPRulesTests {
    let home = TemporaryDirectory("store-sync-otp-rules")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_PASSPHRASE": "correct horse battery staple"]) }

    func counter(_ name: String, _ device: String) throws -> Int64? {
        try cli.exec(["otp", "list", "--json"], device: device).json()["tokens"]?.arrayValue?
            .first { $0["name"]?.stringValue == name }?["counter"]?.int64Value
    }

    @Test func theRealTableRegistersTheOTPRules() {
        let adapter = CommandTable.storeSyncRules().storeAdapter(forceData: false)
        func fields(_ counter: Int64, name: String = "vpn") -> [String: FieldValue] {
            OTPRecordFields.fields(OTPToken(name: name, secret: Array("12345678901234567890".utf8), kind: .hotp,
                                            counter: UInt64(counter)))
        }
        for policy in MergePolicy.allCases {
            // The cloud's copy is newer but its counter is lower: the counter never goes back.
            let outcome = adapter.resolveConflict(recordType: OTPRecordFields.recordType,
                                                  local: MergeSide(fields: fields(9), modified: 100),
                                                  server: MergeSide(fields: fields(5, name: "renamed"), modified: 200),
                                                  ancestor: fields(3), policy: policy)
            #expect(outcome?.fields?[OTPRecordFields.counterField] == .int64(9), "\(policy)")
        }
        #expect(adapter.forcesData(field: "secret", recordType: OTPRecordFields.recordType), "secrets travel inline")
        #expect(adapter.resolveConflict(recordType: "Note", local: MergeSide(fields: ["n": .int64(1)], modified: 1),
                                        server: MergeSide(fields: ["n": .int64(2)], modified: 2), ancestor: nil,
                                        policy: .fields) == nil, "other types: the merge policy alone")
        #expect(StoreSyncRules().storeAdapter(forceData: false).rules.isEmpty)
    }

    @Test func storeSyncKeepsTheHigherHOTPCounterThroughTheBinary() throws {
        #expect(cli.exec(["otp", "add", "vpn", "--type", "hotp"], device: "laptop", stdin: rfcSecret).status == 0)
        let on = cli.exec(["store", "sync", "on"], device: "laptop")
        #expect(on.status == 0, "\(on.stderr)")
        #expect(cli.exec(["store", "sync"], device: "phone").status == 0)
        #expect(try counter("vpn", "phone") == 0)

        // Apart: the laptop uses 3 codes, the phone 1; the phone syncs first.
        #expect((0..<3).map { _ in cli.exec(["otp", "code", "vpn", "-q"], device: "laptop").out } == ["755224", "287082", "359152"])
        #expect(cli.exec(["otp", "code", "vpn", "-q"], device: "phone").out == "755224")
        #expect(cli.exec(["store", "sync"], device: "phone").status == 0)
        let merge = cli.exec(["store", "sync", "--json"], device: "laptop")
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(try merge.json()["conflicts"]?.arrayValue?.first?["resolution"]?.stringValue?.contains("HOTP counter 3 kept") == true)
        #expect(cli.exec(["store", "sync"], device: "phone").status == 0)
        #expect(try counter("vpn", "laptop") == 3 && counter("vpn", "phone") == 3)
        #expect(cli.exec(["otp", "code", "vpn", "-q"], device: "phone").out == "969429", "no code is offered twice")
    }
}
