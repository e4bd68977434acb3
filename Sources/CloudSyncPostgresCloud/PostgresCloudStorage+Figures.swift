import CloudSyncCore
import CloudSyncService
import CloudSyncPostgres

extension PostgresCloudStorage: CloudStorageFigures {
    public func containerFigures() throws(CloudError) -> [ContainerFigures] {
        try guarded { connection in
            try connection.transaction(.repeatableRead) { connection in
                let sql = ContainerFigures.queries(false: "false", bytes: { "octet_length(\($0))" })
                func rows(_ text: String) throws -> [(String, Int64)] {
                    // sum() of a bigint is numeric, which comes back as text.
                    try connection.query(text).rows.map { ($0[0].text ?? "", $0[1].int64 ?? Int64($0[1].text ?? "") ?? 0) }
                }
                return ContainerFigures.merge(records: try rows(sql.records), fieldBytes: try rows(sql.fieldBytes),
                                              assetBytes: try rows(sql.assetBytes))
            }
        }
    }
}
