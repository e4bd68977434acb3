import CloudSyncCore

/// Apple's Zone dictionary (CloudKit Web Services, `zones/list`), the one JSON shape of a zone
/// wherever cloudsync prints or sends one: `{"zoneID": {zoneName, ownerRecordName}, "syncToken",
/// "atomic"}` plus two additions, `capabilities` (`FETCH_CHANGES`, `ATOMIC`) and `recordCount`.
/// `syncToken` is absent for a zone without change tracking. A deleted zone is
/// `{"zoneID", "deleted": true, "purged"}`, as in `changes/database` replies.
public enum ZoneJSON {
    /// The keys of a zone dictionary, in order (`syncToken` only when the zone has one).
    public static let keys = ["zoneID", "syncToken", "atomic", "capabilities", "recordCount"]

    /// A zone as its dictionary.
    public static func encode(_ zone: ZoneInfo) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("zoneID", RecordJSON.encode(zoneID: zone.zoneID))]
        if let token = zone.syncToken { pairs.append(("syncToken", .string(token.rawValue))) }
        pairs.append(("atomic", .bool(zone.capabilities.contains(.atomic))))
        pairs.append(("capabilities", .array(zone.capabilities.names.map { .string($0) })))
        pairs.append(("recordCount", .int(Int64(zone.recordCount))))
        return .object(pairs)
    }

    /// A deleted zone: `{"zoneID", "deleted": true, "purged"}` (`purged`: deleted by the user,
    /// as in iCloud settings, rather than by an app).
    public static func encodeDeletion(_ zoneID: ZoneID, purged: Bool) -> JSONValue {
        .object([("zoneID", RecordJSON.encode(zoneID: zoneID)), ("deleted", .bool(true)), ("purged", .bool(purged))])
    }
}
