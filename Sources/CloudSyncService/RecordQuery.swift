import CloudSyncCore

/// A query over one zone.
public struct RecordQuery: Sendable {
    public var recordType: String
    public var predicate: Predicate
    public var sort: [SortDescriptor]
    public var zoneName: String
    /// Page size; nil for the default.
    public var limit: Int?
    /// The continuation marker of the previous page.
    public var continuation: String?

    public init(recordType: String, predicate: Predicate = .truePredicate, sort: [SortDescriptor] = [],
                zoneName: String = ZoneID.defaultZoneName, limit: Int? = nil, continuation: String? = nil) {
        self.recordType = recordType
        self.predicate = predicate
        self.sort = sort
        self.zoneName = zoneName
        self.limit = limit
        self.continuation = continuation
    }
}

/// One page of query results.
public struct QueryPage: Sendable {
    public var records: [Record]
    /// Pass back as `continuation` for the next page; nil on the last page.
    public var continuation: String?

    public init(records: [Record], continuation: String?) {
        self.records = records
        self.continuation = continuation
    }
}
