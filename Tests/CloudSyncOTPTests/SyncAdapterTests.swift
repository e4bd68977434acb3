import CloudSyncCore
import CloudSyncDevice
import CloudSyncOTP
import TestSupport
import Testing

@Suite("Token storage and the sync adapter's conflict rules")
struct SyncAdapterTests {
    let adapter = OTPSyncAdapter()

    func fields(counter: Int64, name: String = "vpn", lastStep: Int64? = nil) -> [String: FieldValue] {
        var token = OTPToken(name: name, secret: Array("12345678901234567890".utf8), kind: .hotp, counter: UInt64(counter))
        if let lastStep { token.lastUsedStep = UInt64(lastStep) }
        return OTPRecordFields.fields(token)
    }

    func counter(_ outcome: MergeOutcome?) -> Int64? {
        if case .int64(let n)? = outcome?.fields?[OTPRecordFields.counterField] { return n }
        return nil
    }

    @Test func theHigherCounterWinsWhateverThePolicy() {
        let ancestor = fields(counter: 3)
        for policy in MergePolicy.allCases {
            // The local device used the token more; the cloud's copy is newer.
            let outcome = adapter.resolveConflict(recordType: OTPRecordFields.recordType,
                                                  local: MergeSide(fields: fields(counter: 9), modified: 100),
                                                  server: MergeSide(fields: fields(counter: 5, name: "renamed"), modified: 200),
                                                  ancestor: ancestor, policy: policy)
            #expect(counter(outcome) == 9, "\(policy)")
            #expect(outcome?.resolution.contains("HOTP counter 9 kept") == true)
            // And the other way round.
            let other = adapter.resolveConflict(recordType: OTPRecordFields.recordType,
                                                local: MergeSide(fields: fields(counter: 4), modified: 300),
                                                server: MergeSide(fields: fields(counter: 7), modified: 200),
                                                ancestor: ancestor, policy: policy)
            #expect(counter(other) == 7, "\(policy)")
        }
        // Other fields still follow the policy: the cloud's rename survives a field merge.
        let merged = adapter.resolveConflict(recordType: OTPRecordFields.recordType,
                                             local: MergeSide(fields: fields(counter: 9), modified: 100),
                                             server: MergeSide(fields: fields(counter: 5, name: "renamed"), modified: 200),
                                             ancestor: ancestor, policy: .fields)
        #expect(merged?.fields?["name"] == .string("renamed"))
        #expect(merged?.contestedKeys.isEmpty == true, "the counter is not contested: it has a rule")
    }

    @Test func theLastAcceptedStepNeverGoesBack() {
        let outcome = adapter.resolveConflict(recordType: OTPRecordFields.recordType,
                                              local: MergeSide(fields: fields(counter: 0, lastStep: 1000), modified: 100),
                                              server: MergeSide(fields: fields(counter: 0, lastStep: 990), modified: 200),
                                              ancestor: nil, policy: .server)
        #expect(outcome?.fields?[OTPRecordFields.lastStepField] == .int64(1000))
    }

    @Test func deletionsAndOtherTypesAreLeftToThePolicy() {
        #expect(adapter.resolveConflict(recordType: OTPRecordFields.recordType, local: MergeSide(fields: nil, modified: 1),
                                        server: MergeSide(fields: fields(counter: 2), modified: 2), ancestor: nil, policy: .fields) == nil)
        #expect(adapter.resolveConflict(recordType: "Note", local: MergeSide(fields: [:], modified: 1),
                                        server: MergeSide(fields: [:], modified: 2), ancestor: nil, policy: .fields) == nil)
        #expect(adapter.forcesData(field: "secret", recordType: OTPRecordFields.recordType))
        #expect(!adapter.forcesData(field: "picture", recordType: "Note"))
        #expect(adapter.handles(recordType: "Note"), "a pull through otp sync must not skip the store's other records")
    }

    @Test func storeRoundTripAndEncryptionMarks() throws {
        let dir = TemporaryDirectory("otp-store")
        let device = try DeviceStore(path: dir.file("device.sqlite"))
        let store = OTPTokenStore(store: device, container: "iCloud.test", device: "laptop")
        let token = OTPToken(issuer: "GitHub", account: "alice", secret: Array("12345678901234567890".utf8), note: "n")
        let stored = try store.add(token, now: 1)
        #expect(stored.recordName.hasPrefix("otp-"))
        #expect(try store.all().map(\.token) == [token])
        let marks = try EncryptionMarks.all(store: device, container: "iCloud.test")
        #expect(marks[OTPRecordFields.recordType] == OTPRecordFields.encryptedFields)
        #expect(try device.pendingCount(container: "iCloud.test") == 1, "recorded for sync")
        var updated = stored
        updated.token.counter = 5
        updated.token.lastUsedStep = 77
        try store.update(updated, from: token, now: 2)
        #expect(try store.all().first?.token.lastUsedStep == 77)
        guard case .match(let record) = try store.find("github") else { Issue.record("not found"); return }
        #expect(record.recordName == stored.recordName)
        #expect(try store.remove(recordName: stored.recordName, now: 3))
        #expect(try store.all().isEmpty)
    }
}
