import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

extension SQLiteCloudStorage: CloudStorageChecking {
    func check() throws(CloudError) -> CloudCheckReport {
        try read { _ in
            let mark = try SQLiteCloudSchema.migrator.readMark(connection)
            var counts: [(table: String, rows: Int64)] = []
            for table in CloudIntegrityChecks.tables {
                counts.append((table, try connection.scalarInt("SELECT count(*) FROM \(table)") ?? 0))
            }
            var problems: [String] = []
            for (problem, sql) in CloudIntegrityChecks.queries(false: "0") {
                let found = try connection.scalarInt(sql) ?? 0
                if found > 0 { problems.append("\(found) \(problem)") }
            }
            return CloudCheckReport(format: mark?.format ?? "", version: mark?.version ?? 0, counts: counts,
                                    problems: problems)
        }
    }
}
