import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// Human text for subscriptions and notifications.
enum SubscriptionText {
    /// `database private`, `zone Notes (private)`, `query Note where … on create,update (private)`.
    static func summary(_ subscription: Subscription, scope: DatabaseScope) -> String {
        var text: String
        switch subscription.kind {
        case .database:
            text = "database \(scope.rawValue)"
        case .recordZone(let zone):
            text = "zone \(zone) (\(scope.rawValue))"
        case .query(let query):
            text = "query \(query.recordType)"
            if query.predicate != .truePredicate { text += " where \(query.predicate)" }
            text += " on \(query.firesOn.names.joined(separator: ","))"
            if let zone = query.zoneName { text += " in \(zone)" }
            if query.firesOnce { text += ", once" }
            text += " (\(scope.rawValue))"
        }
        return text + notificationSummary(subscription.notificationInfo)
    }

    static func notificationSummary(_ info: NotificationInfo) -> String {
        var text = ""
        if let alert = info.alertBody { text += ", alert \"\(alert)\"" }
        if !info.desiredKeys.isEmpty { text += ", keys \(info.desiredKeys.joined(separator: ","))" }
        return text
    }

    /// What `subscribe list` shows in its TARGET column.
    static func target(_ subscription: Subscription) -> String {
        switch subscription.kind {
        case .database: "(whole database)"
        case .recordZone(let zone): zone
        case .query(let query):
            query.recordType + (query.predicate == .truePredicate ? "" : " where \(query.predicate)")
                + (query.zoneName.map { " in \($0)" } ?? "")
        }
    }

    /// One line per notification:
    /// `[private] database changed (subscription private-changes)`,
    /// `[private] zone Notes changed (subscription notes)`,
    /// `[public] Post p2 created in _defaultZone (subscription posts) topic=swift: New Swift post`.
    static func line(_ notification: CloudNotification) -> String {
        var text = "[\(notification.databaseScope?.rawValue ?? "account")] "
        switch notification.kind {
        case .database:
            text += "database changed"
        case .recordZone:
            text += "zone \(notification.zoneID?.zoneName ?? "?") changed"
        case .query:
            let verb = switch notification.reason {
            case .recordCreated: "created"
            case .recordUpdated: "updated"
            case .recordDeleted: "deleted"
            case nil: "changed"
            }
            text += "\(notification.recordType ?? "record") \(notification.recordID?.recordName ?? "?") \(verb)"
            if let zone = notification.zoneID?.zoneName { text += " in \(zone)" }
        case .keyValue:
            text += "key-value store changed"
        }
        if let id = notification.subscriptionID { text += " (subscription \(id))" }
        if !notification.recordFields.isEmpty {
            text += " " + notification.recordFields.sorted { $0.key < $1.key }
                .map { "\($0.key)=\(RecordFormatting.describe($0.value))" }.joined(separator: " ")
        }
        if let alert = notification.alertBody { text += ": \(alert)" }
        return text
    }

    /// A random UUID (version 4), as CloudKit names subscriptions that were given no ID.
    static func randomID() -> String {
        var rng = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}
