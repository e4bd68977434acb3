import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

extension SQLiteCloudStorage: CloudStorageFigures {
    public func containerFigures() throws(CloudError) -> [ContainerFigures] {
        try read { _ in
            let sql = ContainerFigures.queries(false: "0", bytes: { "length(CAST(\($0) AS BLOB))" })
            func rows(_ text: String) throws -> [(String, Int64)] {
                try connection.query(text) { ($0.string(0), $0.int64(1)) }
            }
            return ContainerFigures.merge(records: try rows(sql.records), fieldBytes: try rows(sql.fieldBytes),
                                          assetBytes: try rows(sql.assetBytes))
        }
    }
}
