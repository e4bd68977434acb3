import CloudSyncCore
import CloudSyncSQLite

extension SQLiteCloud {
    /// Columns read for a subscription, in the order `decodeSubscription` expects.
    static let subscriptionColumns = "subscription_id, kind, zone_name, definition, created_ms, modified_ms, owner"

    func decodeSubscription(_ row: Statement) throws -> Subscription {
        try SubscriptionStorage.decode(id: row.string(0), kind: row.string(1), zoneName: row.optionalString(2),
                                       definition: row.string(3), created: row.int64(4), modified: row.int64(5))
    }

    /// The subscription of a row, or nil (logged) when its stored definition cannot be read or
    /// its predicate could not be evaluated safely. Storage failures still throw.
    func readableSubscription(_ row: Statement) throws -> Subscription? {
        do {
            return try decodeSubscription(row)
        } catch let error as SQLiteError {
            throw error
        } catch {
            let id = row.string(0)
            CloudLog.warning("skipped subscription '\(id)': its stored definition cannot be used (\(error)); its owner can delete it with 'cloudsync subscribe delete \(id)'")
            return nil
        }
    }

    public func saveSubscriptions(_ subscriptions: [Subscription], in request: DatabaseRequest) throws(CloudError) -> [Subscription] {
        guard subscriptions.count <= SubscriptionLimits.maxPerCall else {
            throw CloudError(.limitExceeded, "save at most \(SubscriptionLimits.maxPerCall) subscriptions at once, got \(subscriptions.count)")
        }
        var seen = Set<String>()
        for subscription in subscriptions {
            try subscription.validate(for: request)
            guard seen.insert(subscription.subscriptionID).inserted else {
                throw CloudError(.invalidArguments, "subscription '\(subscription.subscriptionID)' appears twice in one call")
            }
        }
        return try guarded {
            try connection.transaction(.immediate) {
                let db = try ensureDatabase(request)
                let now = clock()
                var saved: [Subscription] = []
                for subscription in subscriptions {
                    if let zoneName = subscription.zoneName, try findZone(zoneName, dbID: db.id) == nil {
                        throw try missingZoneError(zoneName, dbID: db.id, request: request)
                    }
                    let created = try connection.scalarInt(
                        "SELECT created_ms FROM subscriptions WHERE db_id=? AND owner=? AND subscription_id=?",
                        [db.id, request.userRecordName, subscription.subscriptionID]) ?? now
                    try connection.run("""
                        INSERT OR REPLACE INTO subscriptions(db_id, owner, subscription_id, kind, zone_name, record_type,
                            definition, created_ms, modified_ms)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, db.id, request.userRecordName, subscription.subscriptionID, subscription.kind.typeName,
                        subscription.zoneName, subscription.query?.recordType, SubscriptionStorage.encode(subscription),
                        created, now)
                    var stored = subscription
                    stored.creationDate = created
                    stored.modificationDate = now
                    saved.append(stored)
                }
                try NotificationQueue(connection: connection).register(DeviceAddress(request), now: now)
                return saved
            }
        }
    }

    public func fetchAllSubscriptions(in request: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try guarded {
            guard let db = try findDatabase(request) else { return [] }
            return try connection.query("""
                SELECT \(SQLiteCloud.subscriptionColumns) FROM subscriptions
                WHERE db_id=? AND owner=? ORDER BY subscription_id
                """, [db.id, request.userRecordName]) { try readableSubscription($0) }.compactMap { $0 }
        }
    }

    public func deleteSubscriptions(_ ids: [String], in request: DatabaseRequest) throws(CloudError) {
        guard ids.count <= SubscriptionLimits.maxPerCall else {
            throw CloudError(.limitExceeded, "delete at most \(SubscriptionLimits.maxPerCall) subscriptions at once, got \(ids.count)")
        }
        guard !ids.isEmpty else { return }
        try guarded {
            try connection.transaction(.immediate) {
                let dbID = try findDatabase(request)?.id
                var missing: [String] = []
                var unique: [String] = []
                for id in ids where !unique.contains(id) {
                    unique.append(id)
                    let exists = try dbID.map { db in
                        try connection.scalarInt(
                            "SELECT 1 FROM subscriptions WHERE db_id=? AND owner=? AND subscription_id=?",
                            [db, request.userRecordName, id]) != nil
                    } ?? false
                    if !exists { missing.append(id) }
                }
                guard missing.isEmpty, let dbID else {
                    let names = missing.map { "'\($0)'" }.joined(separator: ", ")
                    throw CloudError(.unknownItem,
                                     "no subscription \(names) in the \(request.scope.rawValue) database; nothing was deleted")
                }
                for id in unique {
                    try connection.run("DELETE FROM subscriptions WHERE db_id=? AND owner=? AND subscription_id=?",
                                       dbID, request.userRecordName, id)
                }
            }
        }
    }
}
