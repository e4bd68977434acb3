import CloudSyncCore

/// A committed record change whose notifications are not delivered yet.
///
/// The transaction of a change that some subscription concerns stores one of these (with the
/// records as they were saved and as they were before) on its container's pending queue, a
/// notification queue of no real device. After the commit it is delivered
/// (`StorageBackedCloud.deliverPendingChanges`): the subscriptions are evaluated outside the writer's
/// transaction, so the subscriptions of other accounts do not lengthen it, and a reader of any
/// queue delivers what is pending first, so a change whose writer died is still announced.
struct PendingRecordChange {
    /// The database whose subscriptions the change concerns.
    var dbID: Int64
    var zoneName: String
    /// The request that made the change (its account and device are not notified).
    var request: DatabaseRequest
    /// When the change was made (the notifications' creation date), in ms.
    var now: Int64
    var events: [RecordEvent]

    /// The pending queue of `container`: owner "" (never an account's userRecordName).
    static func queue(_ container: String) -> DeviceAddress {
        DeviceAddress(container: container, userRecordName: "", deviceID: "pending-record-changes")
    }

    /// The stored form (JSON text).
    var payload: String {
        var requestPairs: [(String, JSONValue)] = [
            ("container", .string(request.container)), ("scope", .string(request.scope.rawValue)),
            ("user", .string(request.userRecordName)), ("device", .string(request.deviceID)),
            ("environment", .string(request.environment.rawValue)),
        ]
        if let owner = request.sharedOwner { requestPairs.append(("sharedOwner", .string(owner))) }
        let events = self.events.map { event in
            JSONValue.object([("record", RecordJSON.encode(event.record)), ("deleted", .bool(event.deleted)),
                              ("existedBefore", .bool(event.existedBefore))])
        }
        return JSONValue.object([("db", .int(dbID)), ("zone", .string(zoneName)), ("request", .object(requestPairs)),
                                 ("now", .int(now)), ("events", .array(events))]).serialized()
    }

    init(dbID: Int64, zoneName: String, request: DatabaseRequest, now: Int64, events: [RecordEvent]) {
        self.dbID = dbID
        self.zoneName = zoneName
        self.request = request
        self.now = now
        self.events = events
    }

    /// Reads a stored form back; throws `CloudError` (`internalError`) when it is damaged.
    init(payload: String) throws(CloudError) {
        let json: JSONValue
        do { json = try JSONValue.parse(payload) } catch { throw Self.damaged("not JSON") }
        guard let dbID = json["db"]?.int64Value, let zoneName = json["zone"]?.stringValue,
              let now = json["now"]?.int64Value, let request = json["request"],
              let container = request["container"]?.stringValue,
              let scope = request["scope"]?.stringValue.flatMap(DatabaseScope.init(rawValue:)),
              let user = request["user"]?.stringValue, let device = request["device"]?.stringValue,
              let environment = request["environment"]?.stringValue.flatMap(CloudEnvironment.init(rawValue:)),
              case .array(let items)? = json["events"] else { throw Self.damaged("a member is missing") }
        self.dbID = dbID
        self.zoneName = zoneName
        self.now = now
        self.request = DatabaseRequest(container: container, scope: scope, userRecordName: user, deviceID: device,
                                       environment: environment, sharedOwner: request["sharedOwner"]?.stringValue)
        self.events = try items.map { item throws(CloudError) in
            guard let record = item["record"], let deleted = item["deleted"]?.boolValue,
                  let existed = item["existedBefore"]?.boolValue else { throw Self.damaged("an event is incomplete") }
            return RecordEvent(record: try RecordJSON.decodeRecord(record), deleted: deleted, existedBefore: existed)
        }
    }

    private static func damaged(_ why: String) -> CloudError {
        CloudError(.internalError, "a pending record change cannot be read: \(why)")
    }
}
