import CloudSyncCore

extension ServiceCloud {
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
            var offset: Int64 = 0
            if let continuation = query.continuation {
                let payload = try ChangeTokenCodec.decode(continuation, expecting: .query)
                guard payload.epoch == epoch, payload.scopeID == zone.id, payload.sequence >= 0 else {
                    throw CloudError(.invalidArguments, "the continuation marker belongs to another query or zone")
                }
                offset = payload.sequence
            }
            let zoneID = request.zoneID(zone.name)
            var matches: [Record] = []
            try tx.scanRecords(ofType: query.recordType, zone: zone, dbID: db.id, zoneID: zoneID) { record in
                let hit = search.map { $0.evaluate(query.predicate, record) } ?? query.predicate.evaluate(record)
                if hit, mayRead(record, schema: schema, request) { matches.append(record) }
            }
            let sort = query.sort
            matches.sort { sort.compare($0, $1) }
            let start = Int(min(offset, Int64(matches.count)))
            let end = min(start + limit, matches.count)
            let continuation = end < matches.count
                ? ChangeTokenCodec.encode(TokenPayload(kind: .query, epoch: epoch, scopeID: zone.id, sequence: Int64(end)))
                : nil
            return QueryPage(records: Array(matches[start..<end]), continuation: continuation)
        }
    }
}
