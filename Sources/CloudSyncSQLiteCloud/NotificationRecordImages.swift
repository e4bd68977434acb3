import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

/// Reads what records were before the modify call that is still writing them, for query
/// subscriptions (create or update? did the deleted record match?).
///
/// The writer's own connection already sees its changes, so the previous state comes from a
/// second, read-only connection to the same file: in WAL mode it reads the last committed
/// snapshot, which is exactly the state before the writer's transaction (the writer holds the
/// write lock, so nothing else committed since). It is opened only when a zone with changes has
/// query subscriptions, so saves without them pay nothing (no triggers on `records`).
enum NotificationRecordImages {
    /// The previous state of `names` in a zone, or nil when the file cannot be read a second
    /// time (an in-memory cloud); callers then fall back on the system fields.
    static func load(path: String, dbID: Int64, zoneID: Int64, zone: ZoneID, names: Set<String>) -> [String: NotificationRecordImage]? {
        guard !names.isEmpty, !path.isEmpty, path != ":memory:" else { return names.isEmpty ? [:] : nil }
        var options = Connection.Options()
        options.readOnly = true
        options.walMode = false
        guard let reader = try? Connection(path: path, options: options) else { return nil }
        var images: [String: NotificationRecordImage] = [:]
        do {
            try reader.transaction(.deferred) {
                for name in names {
                    let image = try reader.queryOne("""
                        SELECT deleted, type, fields, created_ms, modified_ms FROM records WHERE db_id=? AND zone_id=? AND name=?
                        """, [dbID, zoneID, name]) { row -> NotificationRecordImage in
                        guard !row.bool(0) else { return NotificationRecordImage(live: false, record: nil) }
                        var fields: [String: FieldValue] = [:]
                        if !row.isNull(2) {
                            let json = try row.withBytes(2) { buffer in try JSONValue.parse(bytes: Array(buffer)) }
                            fields = try RecordJSON.decodeFields(json)
                        }
                        let system = SystemFields(
                            changeTag: "",
                            created: ChangeStamp(timestamp: row.int64(3), userRecordName: "", deviceID: ""),
                            modified: ChangeStamp(timestamp: row.int64(4), userRecordName: "", deviceID: ""))
                        return NotificationRecordImage(
                            live: true, record: Record(recordID: RecordID(recordName: name, zoneID: zone), recordType: row.string(1),
                                                       fields: fields, system: system))
                    }
                    images[name] = image ?? NotificationRecordImage(live: false, record: nil)
                }
            }
        } catch {
            return nil
        }
        return images
    }
}
