import CloudSyncCore

extension StorageBackedCloud {
    public func queryRecords(_ query: RecordQuery, in request: DatabaseRequest) throws(CloudError) -> QueryPage {
        try NameRules.validateIdentifier(query.recordType, kind: "record type")
        try ServiceRules.validatePredicate(query.predicate)
        for sort in query.sort { try PredicateKeys.validateSystemKey(sort.field) }
        let limit = query.limit ?? CloudLimits.defaultPageSize
        guard limit >= 1, limit <= CloudLimits.maxPageSize else {
            throw CloudError(.invalidArguments, "query limit must be 1 to \(CloudLimits.maxPageSize), got \(limit)")
        }
        if request.scope == .shared {
            let shared = try sharedRequest(request, owners: [])
            try read { tx in try requireSharedRead(shared, zoneName: query.zoneName, tx) }
            return try queryRecords(query, in: shared.ownerView)
        }
        let db = try ensureDatabase(request)
        return try read { tx in
            let schema = try rulingSchema(request, tx)
            try checkQueryIndexes(query, schema: schema, request)
            let zone = try requireZone(query.zoneName, dbID: db.id, request: request, tx)
            // `self CONTAINS 'word'` searches the type's SEARCHABLE fields.
            let search = query.predicate.referencedFields.contains(TokenSearch.key)
                ? TokenSearch(type: try (schema ?? declaredSchema(request.storageContainer, tx))?.recordType(named: query.recordType))
                : nil
            let fingerprint = QueryContinuation.fingerprint(of: query)
            var cursor: QuerySortKey?
            if let marker = query.continuation {
                let continuation = try QueryContinuation.decode(marker)
                guard continuation.epoch == epoch, continuation.zoneIncarnation == zone.id,
                      continuation.fingerprint == fingerprint, continuation.key.values.count == query.sort.count else {
                    throw CloudError(.invalidArguments, "the continuation marker belongs to another query or zone")
                }
                cursor = continuation.key
            }
            let zoneID = request.zoneID(zone.name)
            let sort = query.sort
            func matches(_ record: Record) -> Bool {
                let hit = search.map { $0.evaluate(query.predicate, record) } ?? query.predicate.evaluate(record)
                return hit && mayRead(record, schema: schema, request)
            }
            var page: [Record] = []
            var moreComing = false
            if let order = QueryScanOrder(sort: sort, after: cursor, batchSize: limit + 1) {
                // Keyset over the store's own columns: reads one page (plus rows the predicate drops).
                try tx.scanRecords(ofType: query.recordType, zone: zone, dbID: db.id, zoneID: zoneID, order: order) { record in
                    guard matches(record) else { return true }
                    guard page.count < limit else {
                        moreComing = true
                        return false
                    }
                    page.append(record)
                    return true
                }
            } else {
                // A record field in the sort: the service sorts what follows the cursor.
                var following: [(key: QuerySortKey, record: Record)] = []
                try tx.scanRecords(ofType: query.recordType, zone: zone, dbID: db.id, zoneID: zoneID, order: nil) { record in
                    guard matches(record) else { return true }
                    let key = sort.key(of: record)
                    if let cursor, sort.compareKeys(key, cursor) <= 0 { return true }
                    following.append((key, record))
                    return true
                }
                following.sort { sort.compareKeys($0.key, $1.key) < 0 }
                moreComing = following.count > limit
                page = following.prefix(limit).map(\.record)
            }
            let continuation = moreComing
                ? page.last.map { QueryContinuation(epoch: epoch, zoneIncarnation: zone.id, fingerprint: fingerprint,
                                                    key: sort.key(of: $0)).encoded() }
                : nil
            return QueryPage(records: page, continuation: continuation)
        }
    }
}
