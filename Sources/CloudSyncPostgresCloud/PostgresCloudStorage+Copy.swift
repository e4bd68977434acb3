import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

extension PostgresCloudStorage: CloudStorageCopying {
    /// The identity columns whose sequences follow the copied IDs.
    static let identities = [("databases", "db_id"), ("zones", "zone_id"), ("kv_stores", "kv_id"),
                             ("notifications", "notification_id")]

    func dump() throws(CloudError) -> CloudDump {
        try guarded { connection in
            try connection.transaction(.repeatableRead) { connection in
                guard let epoch = try connection.query("SELECT value FROM meta WHERE key='epoch'").first?[0].text else {
                    throw CloudError(.badDatabase, "PostgreSQL cloud \(url.description) has no store epoch")
                }
                var tables: [(name: String, rows: [[CloudCell]])] = []
                for table in CloudCopyTables.tables {
                    let rows = try connection.query(CloudCopyTables.select(table)).rows.map { row in
                        row.values.map { value -> CloudCell in
                            switch value {
                            case .null: .null
                            case .bool(let flag): .int(flag ? 1 : 0)
                            case .int64(let number): .int(number)
                            case .double(let number): .int(Int64(number))
                            case .text(let text): .text(text)
                            case .bytes(let bytes), .binary(_, let bytes): .bytes(bytes)
                            }
                        }
                    }
                    tables.append((table.name, rows))
                }
                return CloudDump(epoch: epoch, tables: tables)
            }
        }
    }

    func load(_ dump: CloudDump) throws(CloudError) {
        try guarded { connection in
            try connection.transaction(.readCommitted) { connection in
                try connection.execute("LOCK TABLE " + CloudCopyTables.tables.map(\.name).joined(separator: ", ")
                                       + " IN ACCESS EXCLUSIVE MODE")
                try connection.execute("TRUNCATE " + CloudCopyTables.tables.map(\.name).joined(separator: ", "))
                for (table, rows) in zip(CloudCopyTables.tables, dump.tables.map(\.rows)) {
                    let sql = CloudCopyTables.insert(table, placeholder: { "$\($0)" })
                    for row in rows {
                        try connection.queryPrepared(sql, zip(table.columns, row).map { column, cell -> PostgresValue in
                            switch cell {
                            case .null: return .null
                            case .int(let value): return column.kind == .bool ? .bool(value != 0) : .int64(value)
                            case .text(let value): return .text(value)
                            case .bytes(let value): return .bytes(value)
                            }
                        })
                    }
                }
                for (table, column) in Self.identities {
                    try connection.execute("""
                        SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), coalesce(max(\(column)), 0) + 1, false) FROM \(table)
                        """)
                }
                try connection.query("UPDATE meta SET value=$1 WHERE key='epoch'", [.text(dump.epoch)])
            }
        }
    }
}
