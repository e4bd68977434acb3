import CloudSyncCore

/// Shared builders for the Core tests.
enum Fixtures {
    static let zone = ZoneID(zoneName: "Notes", ownerRecordName: "_0123456789abcdef0123456789abcdef")

    static func id(_ name: String, zone: ZoneID = Fixtures.zone) -> RecordID {
        RecordID(recordName: name, zoneID: zone)
    }

    static func record(_ name: String = "rec-1", _ fields: [String: FieldValue] = [:],
                       created: Int64? = nil, modified: Int64? = nil) -> Record {
        var record = Record(recordID: id(name), recordType: "Note", fields: fields)
        if let created {
            record.system = SystemFields(
                changeTag: "tag-1",
                created: ChangeStamp(timestamp: created, userRecordName: "_creator", deviceID: "laptop"),
                modified: ChangeStamp(timestamp: modified ?? created, userRecordName: "_editor", deviceID: "phone"))
        }
        return record
    }

    /// The reason of the `CloudError` that `body` throws, or nil when it does not throw.
    static func reason<T>(_ body: () throws -> T) -> String? {
        error(body)?.reason
    }

    /// The `CloudError` that `body` throws, or nil.
    /// Any other error becomes an `internalError` naming it, so that a test comparing codes fails.
    static func error<T>(_ body: () throws -> T) -> CloudError? {
        do {
            _ = try body()
            return nil
        } catch let error as CloudError {
            return error
        } catch {
            return CloudError(.internalError, "not a CloudError: \(error)")
        }
    }
}
