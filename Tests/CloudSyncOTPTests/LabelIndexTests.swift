import CloudSyncCore
import CloudSyncDevice
import CloudSyncOTP
import TestSupport
import Testing

@Suite("The label index stays exact")
struct LabelIndexTests {
    let dir = TemporaryDirectory("otp-index")

    func names(_ store: OTPTokenStore) throws -> [String] {
        try store.labelIndex().sorted.map(\.labels.name)
    }

    @Test func followsEveryKindOfChange() throws {
        let device = try DeviceStore(path: dir.file("device.sqlite"))
        let store = OTPTokenStore(store: device, container: "c", device: "d")
        let secret = Array("12345678901234567890".utf8)
        #expect(try names(store).isEmpty)
        let a = try store.add(OTPToken(issuer: "A", account: "a", secret: secret), now: 1)
        let b = try store.add(OTPToken(name: "tab\there\\and\nnewline", secret: secret + [1]), now: 2)
        #expect(try names(store) == ["A:a", "tab\there\\and\nnewline"])
        // A change that did not come through this store (as `store put` or a sync makes it).
        var fields = OTPRecordFields.fields(a.token)
        fields["name"] = .string("renamed")
        try device.put(container: "c", zone: OTPTokenStore.zoneName, name: a.recordName, type: OTPRecordFields.recordType,
                       fields: fields, device: "other", now: 3)
        try device.put(container: "c", zone: OTPTokenStore.zoneName, name: "note", type: "Note", fields: ["x": .int64(1)],
                       device: "other", now: 4)
        #expect(try names(store) == ["renamed", "tab\there\\and\nnewline"])
        try device.deleteLocal(container: "c", zone: OTPTokenStore.zoneName, name: b.recordName, device: "other", now: 5)
        #expect(try names(store) == ["renamed"])
        // A fresh index (dropped) is rebuilt from the records and agrees.
        let kept = try store.labelIndex()
        try store.dropLabelIndex()
        #expect(try store.labelIndex().sorted == kept.sorted)
        guard case .match(let entry) = try store.find("renamed"), case .success(let found)? = try store.token(recordName: entry.recordName)
        else { Issue.record("not found"); return }
        #expect(found.token.secret == secret)
        #expect(try store.token(recordName: "note") == nil, "another type is not a token")
    }

    @Test func aDamagedIndexIsRebuilt() throws {
        let device = try DeviceStore(path: dir.file("damaged.sqlite"))
        let store = OTPTokenStore(store: device, container: "c", device: "d")
        let secret = Array("12345678901234567890".utf8)
        let added = try store.add(OTPToken(issuer: "Bank", account: "me", secret: secret), now: 1)
        // A current header (nothing newer in history) over lines that do not parse.
        try device.setSyncState(container: "c", "otp.label-index", "otp-label-index 2\t9223372036854775807\nbroken line\n")
        guard case .match(let entry) = try store.find("bank") else { Issue.record("not found after a damaged index"); return }
        #expect(entry.recordName == added.recordName)
        #expect(try names(store) == ["Bank:me"])
    }
}
