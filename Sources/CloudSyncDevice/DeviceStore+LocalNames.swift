import CloudSyncCore

extension DeviceStore {
    /// The record types the local store has records of (for "Did you mean …?" hints).
    public func localRecordTypes(container: String) throws(CloudError) -> [String] {
        try guarded {
            try connection.query("SELECT DISTINCT record_type FROM local_records WHERE container=? ORDER BY 1", [container]) { $0.string(0) }
        }
    }

    /// The field names the local records of `type` have (for "Did you mean …?" hints); at most
    /// the first 1000 records are looked at, so a hint stays quick on a big store.
    public func localFieldNames(container: String, type: String) throws(CloudError) -> [String] {
        try guarded {
            try connection.query("""
                SELECT DISTINCT j.key FROM (SELECT fields FROM local_records WHERE container=? AND record_type=? LIMIT 1000) r,
                json_each(r.fields) j ORDER BY 1
                """, [container, type]) { $0.string(0) }
        }
    }
}
