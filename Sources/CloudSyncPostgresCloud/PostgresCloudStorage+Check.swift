import CloudSyncCore
import CloudSyncService
import CloudSyncPostgres

extension PostgresCloudStorage: CloudStorageChecking {
    func check() throws(CloudError) -> CloudCheckReport {
        try guarded { connection in
            try connection.transaction(.repeatableRead) { connection in
                let mark = try PostgresCloudMigrator.readMark(connection)
                var counts: [(table: String, rows: Int64)] = []
                for table in CloudIntegrityChecks.tables {
                    counts.append((table, try connection.query("SELECT count(*) FROM \(table)").first?[0].int64 ?? 0))
                }
                var problems: [String] = []
                for (problem, sql) in CloudIntegrityChecks.queries(false: "false") {
                    let found = try connection.query(sql).first?[0].int64 ?? 0
                    if found > 0 { problems.append("\(found) \(problem)") }
                }
                return CloudCheckReport(format: mark?.format ?? "", version: mark?.version ?? 0, counts: counts,
                                        problems: problems)
            }
        }
    }
}
