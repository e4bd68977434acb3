import CloudSyncCore

/// How much one container holds, over every account and database: live records, the bytes of
/// their stored fields, and the bytes of its assets (`GET /metrics` of `cloudsync serve`).
public struct ContainerFigures: Sendable, Hashable {
    public var container: String
    public var records: Int64
    public var fieldBytes: Int64
    public var assetBytes: Int64

    public init(container: String, records: Int64, fieldBytes: Int64, assetBytes: Int64) {
        self.container = container
        self.records = records
        self.fieldBytes = fieldBytes
        self.assetBytes = assetBytes
    }

    /// The queries every SQL storage runs (same tables on SQLite and PostgreSQL): each gives
    /// rows of (container, number). `false` is the dialect's literal for the records' `deleted`,
    /// `bytes` the expression of a text column's size in bytes.
    public static func queries(false no: String, bytes: (String) -> String) -> (records: String, fieldBytes: String, assetBytes: String) {
        (records: """
            SELECT d.container, coalesce(sum(z.record_count), 0) FROM databases d
                JOIN zones z ON z.db_id = d.db_id AND z.deleted = 0 GROUP BY d.container
            """,
         fieldBytes: """
            SELECT d.container, coalesce(sum(\(bytes("r.fields"))), 0) FROM databases d
                JOIN records r ON r.db_id = d.db_id AND r.deleted = \(no) GROUP BY d.container
            """,
         assetBytes: """
            SELECT d.container, coalesce(sum(a.size), 0) FROM databases d
                JOIN assets a ON a.db_id = d.db_id GROUP BY d.container
            """)
    }

    /// The figures of the three queries' rows, by container name.
    public static func merge(records: [(String, Int64)], fieldBytes: [(String, Int64)], assetBytes: [(String, Int64)]) -> [ContainerFigures] {
        var out: [String: ContainerFigures] = [:]
        func entry(_ name: String) -> ContainerFigures { out[name] ?? ContainerFigures(container: name, records: 0, fieldBytes: 0, assetBytes: 0) }
        for (name, value) in records { var e = entry(name); e.records = value; out[name] = e }
        for (name, value) in fieldBytes { var e = entry(name); e.fieldBytes = value; out[name] = e }
        for (name, value) in assetBytes { var e = entry(name); e.assetBytes = value; out[name] = e }
        return out.values.sorted { $0.container < $1.container }
    }
}

/// A storage that can count what each container holds (`GET /metrics`).
public protocol CloudStorageFigures {
    /// Every container's figures, in one read transaction, by container name.
    func containerFigures() throws(CloudError) -> [ContainerFigures]
}
