import CloudSyncCore

extension CloudNotification {
    /// The notification as one JSON object, named after CKNotification's properties:
    /// `{notificationID, notificationType, subscriptionID, containerIdentifier, databaseScope,
    /// zoneID, recordName, recordType, queryNotificationReason, recordFields, alertBody, isSilent,
    /// creationDate}`. Keys that do not apply to the kind are left out; `recordFields` uses the
    /// Web Services field shape `{name: {value, type}}`.
    public var json: JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("notificationID", .string(notificationID)),
            ("notificationType", .string(kind.rawValue)),
        ]
        if let subscriptionID { pairs.append(("subscriptionID", .string(subscriptionID))) }
        pairs.append(("containerIdentifier", .string(containerIdentifier)))
        if let databaseScope { pairs.append(("databaseScope", .string(databaseScope.rawValue))) }
        if let zoneID { pairs.append(("zoneID", RecordJSON.encode(zoneID: zoneID))) }
        if let recordID { pairs.append(("recordName", .string(recordID.recordName))) }
        if let recordType { pairs.append(("recordType", .string(recordType))) }
        if let reason { pairs.append(("queryNotificationReason", .string(reason.rawValue))) }
        if kind == .query { pairs.append(("recordFields", RecordJSON.encode(fields: recordFields))) }
        pairs.append(("alertBody", alertBody.map { .string($0) } ?? .null))
        pairs.append(("isSilent", .bool(isSilent)))
        pairs.append(("creationDate", .int(creationDate)))
        return .object(pairs)
    }

    /// Decodes the object written by `json` (`notificationID` may be missing: the queue keeps
    /// it apart). Malformed input is `internalError`: only the cloud writes these.
    public init(json: JSONValue, notificationID: String? = nil) throws(CloudError) {
        func bad(_ what: String) -> CloudError { CloudError(.internalError, "stored notification is damaged: \(what)") }
        guard let kindName = json["notificationType"]?.stringValue, let kind = Kind(rawValue: kindName) else {
            throw bad("notificationType")
        }
        guard let id = notificationID ?? json["notificationID"]?.stringValue else { throw bad("notificationID") }
        guard let container = json["containerIdentifier"]?.stringValue else { throw bad("containerIdentifier") }
        var scope: DatabaseScope?
        if let name = json["databaseScope"]?.stringValue {
            guard let parsed = DatabaseScope(rawValue: name) else { throw bad("databaseScope") }
            scope = parsed
        }
        var zoneID: ZoneID?
        if let zone = json["zoneID"] { zoneID = try RecordJSON.decodeZoneID(zone) }
        var recordID: RecordID?
        if let name = json["recordName"]?.stringValue {
            guard let zoneID else { throw bad("recordName without zoneID") }
            recordID = RecordID(recordName: name, zoneID: zoneID)
        }
        var reason: QueryReason?
        if let name = json["queryNotificationReason"]?.stringValue {
            guard let parsed = QueryReason(rawValue: name) else { throw bad("queryNotificationReason") }
            reason = parsed
        }
        var fields: [String: FieldValue] = [:]
        if let encoded = json["recordFields"] { fields = try RecordJSON.decodeFields(encoded) }
        self.init(notificationID: id, kind: kind, subscriptionID: json["subscriptionID"]?.stringValue,
                  containerIdentifier: container, databaseScope: scope, zoneID: zoneID, recordID: recordID,
                  recordType: json["recordType"]?.stringValue, reason: reason, recordFields: fields,
                  alertBody: json["alertBody"]?.stringValue, creationDate: json["creationDate"]?.int64Value ?? 0)
    }
}
