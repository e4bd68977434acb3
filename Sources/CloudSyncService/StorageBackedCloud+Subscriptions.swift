import CloudSyncCore

extension StorageBackedCloud {
    /// The subscription of a row, or nil (logged) when its stored definition cannot be read or
    /// its predicate could not be evaluated safely.
    func readableSubscription(_ row: SubscriptionRow) -> Subscription? {
        do {
            return try SubscriptionStorage.decode(id: row.id, kind: row.kind, zoneName: row.zoneName,
                                                  definition: row.definition, created: row.created, modified: row.modified)
        } catch {
            CloudLog.warning("skipped subscription '\(row.id)': its stored definition cannot be used (\(error)); its owner can delete it with 'cloudsync subscribe delete \(row.id)'")
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
        return try write { tx in
            let db = try ensureDatabase(request, tx)
            let now = clock()
            var saved: [Subscription] = []
            try checkSubscriptionCount(subscriptions, dbID: db.id, request: request, tx)
            let schema = try rulingSchema(request, tx)
            for var subscription in subscriptions {
                if case .query(let query) = subscription.kind {
                    // Production subscriptions obey the production schema, as queries do.
                    try checkQueryIndexes(RecordQuery(recordType: query.recordType, predicate: query.predicate),
                                          schema: schema, request)
                }
                if request.scope == .shared, let zoneName = subscription.zoneName {
                    subscription.zoneOwner = try sharedZoneOwner(of: subscription, zoneName: zoneName, request: request,
                                                                 dbID: db.id, tx)
                } else if let zoneName = subscription.zoneName, try tx.findZone(zoneName, dbID: db.id) == nil {
                    throw try missingZoneError(zoneName, dbID: db.id, request: request, tx)
                }
                if request.scope != .shared || subscription.zoneName == nil { subscription.zoneOwner = nil }
                let created = try tx.subscriptionCreated(subscription.subscriptionID, owner: request.userRecordName,
                                                         dbID: db.id) ?? now
                let definition = SubscriptionStorage.encode(subscription)
                guard definition.utf8.count <= SubscriptionLimits.maxStoredBytes else {
                    throw CloudError(.limitExceeded, "subscription \(NameRules.quoted(subscription.subscriptionID)) is \(definition.utf8.count) bytes "
                                     + "stored; at most \(SubscriptionLimits.maxStoredBytes >> 10) KiB")
                }
                try tx.putSubscription(SubscriptionRow(
                    owner: request.userRecordName, id: subscription.subscriptionID, kind: subscription.kind.typeName,
                    zoneName: subscription.zoneName, recordType: subscription.query?.recordType,
                    definition: definition, created: created, modified: now), dbID: db.id)
                var stored = subscription
                stored.creationDate = created
                stored.modificationDate = now
                saved.append(stored)
            }
            try register(DeviceAddress(request), tx)
            return saved
        }
    }

    /// Throws `limitExceeded` when saving `subscriptions` would leave the caller with more than
    /// `SubscriptionLimits.maxPerAccount` in this database (replacing one of the same ID adds
    /// none), or with more than `SubscriptionLimits.maxComparisonsPerAccount` comparisons in its
    /// query subscriptions together.
    func checkSubscriptionCount(_ subscriptions: [Subscription], dbID: Int64, request: DatabaseRequest,
                                _ tx: any CloudStorageTransaction) throws {
        let rows = try tx.subscriptions(owner: request.userRecordName, dbID: dbID)
        let existing = Set(rows.map(\.id))
        let total = existing.union(subscriptions.map(\.subscriptionID)).count
        guard total <= SubscriptionLimits.maxPerAccount else {
            throw CloudError(.limitExceeded, "an account keeps at most \(SubscriptionLimits.maxPerAccount) subscriptions in a database; "
                             + "this one has \(existing.count) and the call would make \(total); delete some first")
        }
        let replaced = Set(subscriptions.map(\.subscriptionID))
        let kept = rows.filter { !replaced.contains($0.id) }
            .compactMap { decodedSubscriptions.subscription($0, dbID: dbID, decode: readableSubscription) }
        let comparisons = (kept + subscriptions).reduce(0) { sum, subscription in
            sum + (subscription.query?.predicate.comparisonCount(stoppingAfter: SubscriptionLimits.maxComparisonsPerAccount) ?? 0)
        }
        guard comparisons <= SubscriptionLimits.maxComparisonsPerAccount else {
            throw CloudError(.limitExceeded, "an account's query subscriptions in a database hold at most "
                             + "\(SubscriptionLimits.maxComparisonsPerAccount) comparisons together; this call would make \(comparisons); "
                             + "narrow or delete some first")
        }
    }

    public func fetchAllSubscriptions(in request: DatabaseRequest) throws(CloudError) -> [Subscription] {
        try read { tx in
            guard let db = try findDatabase(request, tx) else { return [] }
            return try tx.subscriptions(owner: request.userRecordName, dbID: db.id).compactMap { readableSubscription($0) }
        }
    }

    public func deleteSubscriptions(_ ids: [String], in request: DatabaseRequest) throws(CloudError) {
        guard ids.count <= SubscriptionLimits.maxPerCall else {
            throw CloudError(.limitExceeded, "delete at most \(SubscriptionLimits.maxPerCall) subscriptions at once, got \(ids.count)")
        }
        guard !ids.isEmpty else { return }
        try write { tx in
            let dbID = try findDatabase(request, tx)?.id
            var missing: [String] = []
            var unique: [String] = []
            for id in ids where !unique.contains(id) {
                unique.append(id)
                let exists = try dbID.map { db in
                    try tx.subscriptionCreated(id, owner: request.userRecordName, dbID: db) != nil
                } ?? false
                if !exists { missing.append(id) }
            }
            guard missing.isEmpty, let dbID else {
                let names = missing.map { "'\($0)'" }.joined(separator: ", ")
                throw CloudError(.unknownItem,
                                 "no subscription \(names) in the \(request.scope.rawValue) database; nothing was deleted")
            }
            for id in unique {
                try tx.deleteSubscription(id, owner: request.userRecordName, dbID: dbID)
            }
        }
    }

    /// The owner of the shared zone a subscription of the shared database names: its own
    /// `zoneOwner`, else the request's owner, else the one owner sharing a zone of that name
    /// with the caller. The zone must be shared with the caller (`zoneNotFound` otherwise).
    func sharedZoneOwner(of subscription: Subscription, zoneName: String, request: DatabaseRequest, dbID: Int64,
                         _ tx: any CloudStorageTransaction) throws -> String {
        func named(_ owner: String?) -> String? {
            guard let owner, !owner.isEmpty, owner != ZoneID.currentUserOwner, owner != request.userRecordName else { return nil }
            return owner
        }
        let owners = try tx.sharedZones(dbID: dbID).filter { $0.live && $0.zoneName == zoneName }.map(\.owner)
        if let owner = named(subscription.zoneOwner) ?? named(request.sharedOwner) {
            guard owners.contains(owner) else { throw notSharedError(zoneName, recordID: nil) }
            return owner
        }
        switch Set(owners).count {
        case 0:
            throw notSharedError(zoneName, recordID: nil)
        case 1:
            return owners[0]
        default:
            throw CloudError(.invalidArguments,
                             "zones named '\(zoneName)' are shared with you by \(Set(owners).count) accounts: name the zone's owner (--owner OWNER)")
        }
    }
}
