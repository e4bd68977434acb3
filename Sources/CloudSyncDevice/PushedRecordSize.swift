import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto

/// The size a local record will have in the cloud once it is pushed, as the cloud measures it
/// (`Record.estimatedSize`), so that a local write the cloud would refuse is refused when it is
/// written (`ServiceRules.validateSize`) instead of staying pending forever.
///
/// It mirrors what a push sends: BYTES fields travel as asset references unless the store's
/// force-data setting keeps them inline; a field marked encrypted travels inline as
/// ENCRYPTED_BYTES (`EncryptingAdapter`: version byte, nonce, sealed typed-JSON plaintext, tag);
/// and the sync engine adds the edit-time field.
public enum PushedRecordSize {
    /// The sync-state key of the store's force-data setting (`store config force-data`).
    public static let forceDataStateKey = "force_data"

    /// The estimated cloud size of a record with these fields.
    static func estimate(recordName: String, recordType: String, fields: [String: FieldValue],
                         encrypted: Set<String>, inlineBytes: Bool) -> Int {
        var size = recordName.utf8.count + recordType.utf8.count
        size += ServiceRules.editTimeField.utf8.count + FieldValue.timestamp(0).estimatedSize
        for (name, value) in fields {
            size += name.utf8.count
            if encrypted.contains(name) {
                size += encryptedSize(value)
            } else if !inlineBytes {
                size += asAssets(value).estimatedSize
            } else {
                size += value.estimatedSize
            }
        }
        return size
    }

    /// The size of the ENCRYPTED_BYTES value `EncryptingAdapter` makes of `value`.
    static func encryptedSize(_ value: FieldValue) -> Int {
        let plaintext = JSONValue.object([("value", RecordJSON.encodeValue(value)),
                                          ("type", .string(value.typeName.description))]).serialized().utf8.count
        return 1 + AESGCM.nonceSize + plaintext + AESGCM.tagSize
    }

    /// `value` with BYTES replaced by (placeholder) asset references, as `AssetCoding` sends it.
    static func asAssets(_ value: FieldValue) -> FieldValue {
        let placeholder = AssetReference(checksum: "", size: 0)
        switch value {
        case .bytes: return .asset(placeholder)
        case .list(.bytes, let items): return .list(.asset, items.map { _ in .asset(placeholder) })
        default: return value
        }
    }
}

extension DeviceStore {
    /// Refuses (`limitExceeded`, exit 65) a local record that would be over the cloud's record
    /// size limit once pushed. Reads the store's encryption marks and force-data setting; call
    /// inside the writing transaction.
    func checkPushedSize(container: String, name: String, type: String, fields: [String: FieldValue]) throws {
        let marks = try connection.queryOne("SELECT value FROM sync_state WHERE container=? AND key=?",
                                            [container, EncryptionMarks.key(type)]) { $0.string(0) }
        let encrypted = Set((marks ?? "").split(separator: ",").map(String.init))
        let forceData = try connection.queryOne("SELECT value FROM sync_state WHERE container=? AND key=?",
                                                [container, PushedRecordSize.forceDataStateKey]) { $0.string(0) } == "on"
        let size = PushedRecordSize.estimate(recordName: name, recordType: type, fields: fields, encrypted: encrypted,
                                             inlineBytes: forceData)
        try ServiceRules.validateSize(size, recordName: name,
                                      advice: "nothing was stored; large data belongs in BYTES fields, which travel as assets unless encrypted or force-data is on")
    }
}
