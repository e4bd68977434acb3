import CloudSyncCore
import CloudSyncSQLite

/// The local store of a participant's shared zones (issue 18): each owner's shared zones live in
/// a device file of their own (`sharedPath`), so their zone names never meet the account's own.
extension DeviceStore {
    /// The device file holding the shared zones of `owner` (an account login) next to the
    /// device's own file at `path`; the login is kept readable, other bytes hex-escaped.
    public static func sharedPath(devicePath path: String, owner: String) -> String {
        let base = path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) : path
        var name = ""
        for byte in owner.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.properties.isASCIIHexDigit || ("g"..."z").contains(scalar) || ("G"..."Z").contains(scalar)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                name.append(Character(scalar))
            } else {
                name += "." + String(byte, radix: 16)
            }
        }
        return base + ".shared-" + name + ".sqlite"
    }

    /// Drops a zone that stopped being shared with this account from the local store: its
    /// records and their pending marks go (they are the owner's data, not this account's),
    /// recorded in history as a deletion by sync. Inside the caller's transaction. The count of
    /// records dropped.
    @discardableResult
    public func dropUnsharedZone(container: String, zone: String, device: String, now: Int64) throws -> Int {
        let records = try localRecords(container: container, zone: zone)
        try connection.run("DELETE FROM pending WHERE container=? AND zone_name=?", container, zone)
        guard !records.isEmpty else { return 0 }
        try connection.run("DELETE FROM local_records WHERE container=? AND zone_name=?", container, zone)
        let changes = records.map { HistoryChange(zoneName: zone, recordName: $0.name, recordType: $0.type, kind: .delete, changedKeys: []) }
        _ = try recordHistory(container: container, changes: changes, device: device, author: LocalStoreDefaults.syncAuthor,
                              now: now, markPending: false)
        return records.count
    }

    func localRecords(container: String, zone: String) throws -> [(name: String, type: String)] {
        try connection.query("SELECT record_name, record_type FROM local_records WHERE container=? AND zone_name=?",
                             [container, zone]) { ($0.string(0), $0.string(1)) }
    }

    /// The zones this file holds anything of: local records or pending changes (a pending
    /// deletion has no local record left).
    public func heldZoneNames(container: String) throws(CloudError) -> [String] {
        try guarded {
            try connection.query("""
                SELECT zone_name FROM local_records WHERE container=? UNION SELECT zone_name FROM pending WHERE container=?
                ORDER BY 1
                """, [container, container]) { $0.string(0) }
        }
    }

    /// The pending changes of one zone.
    public func pendingCount(container: String, zone: String) throws(CloudError) -> Int {
        try guarded {
            try connection.query("SELECT COUNT(*) FROM pending WHERE container=? AND zone_name=?", [container, zone]) {
                Int($0.int64(0))
            }.first ?? 0
        }
    }
}
