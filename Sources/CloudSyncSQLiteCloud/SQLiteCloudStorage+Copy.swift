import CloudSyncCore
import CloudSyncService
import CloudSyncSQLite

extension SQLiteCloudStorage: CloudStorageCopying {
    func dump() throws(CloudError) -> CloudDump {
        try read { _ in
            guard let epoch = try connection.queryOne("SELECT value FROM meta WHERE key='epoch'", [], { $0.string(0) }) else {
                throw CloudError(.badDatabase, "cloud file \(path) has no store epoch")
            }
            var tables: [(name: String, rows: [[CloudCell]])] = []
            for table in CloudCopyTables.tables {
                let rows = try connection.query(CloudCopyTables.select(table)) { row -> [CloudCell] in
                    table.columns.enumerated().map { index, column in
                        let i = Int32(index)
                        if row.isNull(i) { return .null }
                        switch column.kind {
                        case .int, .bool: return .int(row.int64(i))
                        case .text: return .text(row.string(i))
                        case .bytes: return .bytes(row.blob(i))
                        }
                    }
                }
                tables.append((table.name, rows))
            }
            return CloudDump(epoch: epoch, tables: tables)
        }
    }

    func load(_ dump: CloudDump) throws(CloudError) {
        try write { _ in
            for table in CloudCopyTables.tables.reversed() { try connection.execute("DELETE FROM \(table.name)") }
            for (table, rows) in zip(CloudCopyTables.tables, dump.tables.map(\.rows)) {
                let statement = try connection.prepare(CloudCopyTables.insert(table, placeholder: { _ in "?" }))
                for row in rows {
                    try statement.run(row.map { cell -> any SQLiteBindable in
                        switch cell {
                        case .null: return SQLiteValue.null
                        case .int(let value): return value
                        case .text(let value): return value
                        case .bytes(let value): return value
                        }
                    })
                }
            }
            try connection.run("UPDATE meta SET value=? WHERE key='epoch'", dump.epoch)
        }
    }
}
