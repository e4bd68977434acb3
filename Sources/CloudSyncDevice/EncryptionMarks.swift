import CloudSyncCore

/// Which fields of which record types this device encrypts, kept in the store's sync state.
/// Marks come from `store put --encrypt` and from records pulled with ENCRYPTED_BYTES fields,
/// so every device of the account encrypts what any of them marked.
public enum EncryptionMarks {
    static func key(_ recordType: String) -> String { "encrypt:" + recordType }

    /// Every mark: record type → field names.
    public static func all(store: DeviceStore, container: String) throws(CloudError) -> [String: Set<String>] {
        var marks: [String: Set<String>] = [:]
        for (key, value) in try store.syncStates(container: container, prefix: "encrypt:") {
            marks[String(key.dropFirst("encrypt:".count))] = Set(value.split(separator: ",").map(String.init))
        }
        return marks
    }

    /// Marks fields of a record type as encrypted.
    public static func add(_ fields: Set<String>, recordType: String, store: DeviceStore, container: String) throws(CloudError) {
        guard !fields.isEmpty else { return }
        let current = Set((try store.syncState(container: container, key(recordType)) ?? "").split(separator: ",").map(String.init))
        let updated = current.union(fields)
        if updated != current {
            try store.setSyncState(container: container, key(recordType), updated.sorted().joined(separator: ","))
        }
    }

    /// Records the encrypted fields of a pulled record (inside the page transaction).
    static func learn(from record: Record, store: DeviceStore, container: String) throws {
        let names = EncryptingAdapter.encryptedFieldNames(record)
        guard !names.isEmpty else { return }
        try add(names, recordType: record.recordType, store: store, container: container)
    }
}
