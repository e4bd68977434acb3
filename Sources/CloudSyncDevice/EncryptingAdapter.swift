import CloudSyncCore
import CloudSyncCrypto

/// Wraps a model adapter and encrypts chosen fields on the device before push and decrypts
/// them after pull (CloudKit's `encryptedValues`). A field is sealed with AES-256-GCM under the
/// account's data key, with the zone, record name and field name as associated data, so a
/// ciphertext moved to another record or field fails to open. In the cloud the field is
/// ENCRYPTED_BYTES: `version 1 | nonce | ciphertext | tag`, the plaintext being the field's
/// typed JSON value.
public struct EncryptingAdapter: ModelAdapter {
    public let inner: any ModelAdapter
    /// Record type → fields to encrypt.
    public let encryptedFields: [String: Set<String>]
    /// The data key, or nil when this device has not unlocked it.
    public let key: [UInt8]?

    public init(wrapping inner: any ModelAdapter, encryptedFields: [String: Set<String>], key: [UInt8]?) {
        self.inner = inner
        self.encryptedFields = encryptedFields
        self.key = key
    }

    public var zoneName: String { inner.zoneName }
    public func handles(recordType: String) -> Bool { inner.handles(recordType: recordType) }

    public func forcesData(field: String, recordType: String) -> Bool {
        encryptedFields[recordType]?.contains(field) == true || inner.forcesData(field: field, recordType: recordType)
    }

    public func resolveConflict(recordType: String, local: MergeSide, server: MergeSide, ancestor: [String: FieldValue]?,
                                policy: MergePolicy) -> MergeOutcome? {
        inner.resolveConflict(recordType: recordType, local: local, server: server, ancestor: ancestor, policy: policy)
    }

    public func outgoingFields(_ record: LocalRecord) throws(CloudError) -> [String: FieldValue] {
        var fields = try inner.outgoingFields(record)
        guard let marked = encryptedFields[record.recordType], !marked.isEmpty else { return fields }
        for name in marked.sorted() {
            guard let value = fields[name] else { continue }
            guard let key else {
                throw CloudError(.permissionFailure,
                                 "record '\(record.recordName)' has the encrypted field '\(name)' but this device has no data key; run 'cloudsync keys unlock' or set CLOUDSYNC_PASSPHRASE")
            }
            let plaintext = Array(JSONValue.object([("value", RecordJSON.encodeValue(value)),
                                                    ("type", .string(value.typeName.description))]).serialized().utf8)
            let nonce = SecureRandom.bytes(AESGCM.nonceSize)
            do {
                let sealed = try AESGCM.seal(plaintext, key: key, nonce: nonce,
                                             aad: EncryptingAdapter.aad(zone: record.zoneName, record: record.recordName, field: name))
                fields[name] = .encryptedBytes([1] + nonce + sealed)
            } catch {
                throw CloudError(.internalError, "cannot encrypt field '\(name)': \(error)")
            }
        }
        return fields
    }

    public func incomingFields(_ record: Record) throws(CloudError) -> [String: FieldValue] {
        var fields = try inner.incomingFields(record)
        for (name, value) in fields {
            guard case .encryptedBytes(let box) = value else { continue }
            guard let key else {
                throw CloudError(.permissionFailure,
                                 "record '\(record.recordID.recordName)' has the encrypted field '\(name)' but this device has no data key; run 'cloudsync keys unlock' or set CLOUDSYNC_PASSPHRASE")
            }
            guard box.count > 1 + AESGCM.nonceSize + AESGCM.tagSize, box[0] == 1 else {
                throw CloudError(.invalidArguments, "encrypted field '\(name)' of '\(record.recordID.recordName)' is malformed")
            }
            let nonce = Array(box[1..<(1 + AESGCM.nonceSize)])
            let sealed = Array(box[(1 + AESGCM.nonceSize)...])
            let plaintext: [UInt8]
            do {
                plaintext = try AESGCM.open(sealed, key: key, nonce: nonce,
                                            aad: EncryptingAdapter.aad(zone: record.recordID.zoneID.zoneName,
                                                                       record: record.recordID.recordName, field: name))
            } catch CryptoError.unavailable(let library, let why) {
                throw CloudError(.internalError, CryptoError.unavailable(library, why).description)
            } catch {
                throw CloudError(.invalidArguments,
                                 "encrypted field '\(name)' of '\(record.recordID.recordName)' failed to decrypt: tampered, moved from another record or field, or another key")
            }
            guard let json = try? JSONValue.parse(bytes: plaintext), let typeText = json["type"]?.stringValue,
                  let type = FieldTypeName(typeText), let inner = json["value"] else {
                throw CloudError(.invalidArguments, "encrypted field '\(name)' of '\(record.recordID.recordName)' holds no field value")
            }
            fields[name] = try RecordJSON.decodeValue(inner, type: type, field: name)
        }
        return fields
    }

    /// Associated data binding a ciphertext to its zone, record and field.
    static func aad(zone: String, record: String, field: String) -> [UInt8] {
        Array("cloudsync field v1".utf8) + [0] + Array(zone.utf8) + [0] + Array(record.utf8) + [0] + Array(field.utf8)
    }

    /// The encrypted fields a record arrived with (to learn marks from other devices).
    public static func encryptedFieldNames(_ record: Record) -> Set<String> {
        Set(record.fields.compactMap { key, value in
            if case .encryptedBytes = value { return key }
            return nil
        })
    }
}
