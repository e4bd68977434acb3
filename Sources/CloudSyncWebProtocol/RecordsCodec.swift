import CloudSyncService
import CloudSyncCore

/// `records/modify`, `records/lookup`, `records/query` and `records/changes`: request and reply
/// dictionaries, both ways. Records use the project's record dictionary (`RecordJSON`).
public enum RecordsCodec {
    /// The most operations (or looked-up records) one request may carry, as Apple documents
    /// for Web Services ("Data Size Limits": 200 operations per request).
    public static let maxOperations = 200

    // MARK: records/modify

    /// `{operations: [{operationType, record}], atomic?}`. Saves map from the save policy:
    /// if-unchanged → `update` (with the record's change tag) or `create` (a record without one),
    /// changed-keys → `forceUpdate`, all-keys → `forceReplace`; deletes are `forceDelete`.
    public static func encodeModify(_ request: ModifyRequest) -> JSONValue {
        var operations: [JSONValue] = []
        for record in request.saves {
            let type: String = switch request.policy {
            case .ifServerRecordUnchanged: record.changeTag == nil ? "create" : "update"
            case .changedKeys: "forceUpdate"
            case .allKeys: "forceReplace"
            }
            operations.append(.object([("operationType", .string(type)), ("record", RecordJSON.encode(record))]))
        }
        for id in request.deletes {
            operations.append(.object([("operationType", .string("forceDelete")),
                                       ("record", .object([("recordName", .string(id.recordName)),
                                                           ("zoneID", RecordJSON.encode(zoneID: id.zoneID))]))]))
        }
        return .object([("operations", .array(operations))])
    }

    /// Decodes a modify request. Operations that need different save policies in one request
    /// (`forceUpdate` with `update`, say) are BAD_REQUEST: the service applies one policy per call.
    public static func decodeModify(_ json: JSONValue) throws(CloudError) -> (request: ModifyRequest, desiredKeys: [String]?) {
        _ = try JSONFields.object(json, "the request")
        guard let operations = try JSONFields.array(json, "operations", required: true) else { throw JSONFields.bad("no operations") }
        try checkCount(operations.count, "operations")
        let zone = try JSONFields.zoneID(json)
        let desired = try JSONFields.desiredKeys(json)
        var request = ModifyRequest()
        var policy: SavePolicy?
        for (index, operation) in operations.enumerated() {
            _ = try JSONFields.object(operation, "operations[\(index)]")
            guard let type = try JSONFields.string(operation, "operationType", required: true) else { continue }
            guard let recordJSON = operation["record"] else { throw JSONFields.bad("operations[\(index)] has no record") }
            _ = try JSONFields.object(recordJSON, "operations[\(index)].record")
            let itemPolicy: SavePolicy
            switch type {
            case "create", "update", "replace": itemPolicy = .ifServerRecordUnchanged
            case "forceUpdate": itemPolicy = .changedKeys
            case "forceReplace": itemPolicy = .allKeys
            case "delete", "forceDelete":
                guard let name = recordJSON["recordName"]?.stringValue else {
                    throw JSONFields.bad("operations[\(index)].record has no recordName")
                }
                let zoneID = try JSONFields.zoneID(recordJSON) ?? zone ?? defaultZone
                request.deletes.append(RecordID(recordName: name, zoneID: zoneID))
                continue
            default:
                throw JSONFields.bad("operations[\(index)]: unknown operationType \(NameRules.quoted(type)); use create, update, "
                                     + "forceUpdate, replace, forceReplace, delete or forceDelete")
            }
            if let policy, policy != itemPolicy {
                throw JSONFields.bad("operations[\(index)]: '\(type)' cannot be mixed with the save policy of the operations before it; send them in separate requests")
            }
            policy = itemPolicy
            var recordBody = recordJSON
            if type == "create", recordJSON["recordName"] == nil, case .object(let pairs) = recordJSON {
                // Apple: a created record's name defaults to a random UUID.
                recordBody = .object([("recordName", .string(RequestUUID.make().uppercased()))] + pairs)
            }
            let (typedBody, untyped) = try splitUntypedFields(recordBody)
            let record = try RecordJSON.decodeRecord(typedBody, defaultZone: zone ?? defaultZone)
            if !untyped.isEmpty { request.untypedFields[record.recordID] = untyped }
            request.saves.append(record)
        }
        request.policy = policy ?? .ifServerRecordUnchanged
        return (request, desired)
    }

    /// `{records: [...]}`: saved records, deleted records (`deleted: true`), then per-record
    /// errors `{recordName, zoneID, serverErrorCode, reason, uuid, retryAfter}` (a conflict also
    /// carries the extension `serverRecord`).
    public static func encodeModifyReply(_ result: ModifyResult, desiredKeys: [String]?, uuid: String) -> JSONValue {
        var records = result.saved.map { RecordJSON.encode(filter($0, desiredKeys)) }
        records += result.deleted.map { RecordJSON.encodeDeletion($0) }
        records += result.errors.sorted { $0.key.recordName < $1.key.recordName }.map { id, error in
            itemError(error, id: id, uuid: uuid)
        }
        return .object([("records", .array(records))])
    }

    /// `encodeModify(request).serialized()` as bytes, the records written directly.
    public static func encodeModifyBytes(_ request: ModifyRequest) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + request.saves.count * 400 + request.deletes.count * 160)
        out.append(contentsOf: #"{"operations":["#.utf8)
        for (index, record) in request.saves.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let type: String = switch request.policy {
            case .ifServerRecordUnchanged: record.changeTag == nil ? "create" : "update"
            case .changedKeys: "forceUpdate"
            case .allKeys: "forceReplace"
            }
            out.append(contentsOf: #"{"operationType":""#.utf8)
            out.append(contentsOf: type.utf8)
            out.append(contentsOf: #"","record":"#.utf8)
            RecordJSON.writeRecord(record, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        for (index, id) in request.deletes.enumerated() {
            if index > 0 || !request.saves.isEmpty { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"operationType":"forceDelete","record":{"recordName":"#.utf8)
            JSONValue.string(id.recordName).write(to: &out)
            out.append(contentsOf: #","zoneID":"#.utf8)
            RecordJSON.writeZoneID(id.zoneID, to: &out)
            out.append(contentsOf: "}}".utf8)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// `encodeModifyReply(…).serialized()` as bytes, the records written directly.
    public static func encodeModifyReplyBytes(_ result: ModifyResult, desiredKeys: [String]?, uuid: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + result.saved.count * 400 + result.deleted.count * 160)
        out.append(contentsOf: #"{"records":["#.utf8)
        var first = true
        func separate() {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
        }
        for record in result.saved {
            separate()
            RecordJSON.writeRecord(filter(record, desiredKeys), to: &out)
        }
        for id in result.deleted {
            separate()
            RecordJSON.writeDeletion(id, to: &out)
        }
        for (id, error) in result.errors.sorted(by: { $0.key.recordName < $1.key.recordName }) {
            separate()
            itemError(error, id: id, uuid: uuid).write(to: &out)
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }

    /// A modify reply read in one pass when it holds only saved and deleted records (the
    /// common case); with per-record errors, or anything unusual, the general path.
    public static func decodeModifyReply(bytes: [UInt8]) throws(CloudError) -> ModifyResult {
        if let page = RecordJSON.decodeChangesPage(bytes: bytes, defaultZone: defaultZone) {
            var result = ModifyResult()
            result.saved = page.changed
            result.deleted = page.deleted.map(\.recordID)
            return result
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes: bytes)
        } catch {
            throw CloudError(.networkFailure, "the cloud's reply is not JSON (\(error.description))")
        }
        return try decodeModifyReply(json)
    }

    public static func decodeModifyReply(_ json: JSONValue) throws(CloudError) -> ModifyResult {
        var result = ModifyResult()
        for entry in try JSONFields.array(json, "records", required: true) ?? [] {
            if entry["serverErrorCode"] != nil {
                let error = WebServicesError.decode(entry)
                guard let id = error.recordID else { throw malformedReply("a record error has no recordName") }
                result.errors[id] = error
            } else if entry["deleted"]?.boolValue == true {
                guard let name = entry["recordName"]?.stringValue else { throw malformedReply("a deletion has no recordName") }
                result.deleted.append(RecordID(recordName: name, zoneID: try JSONFields.zoneID(entry) ?? defaultZone))
            } else {
                result.saved.append(try RecordJSON.decodeRecord(entry))
            }
        }
        return result
    }

    // MARK: records/lookup

    /// `{records: [{recordName, zoneID}]}` (Apple puts one `zoneID` at the top; a per-record
    /// `zoneID` is this project's extension, so one lookup can span zones).
    public static func encodeLookup(_ ids: [RecordID]) -> JSONValue {
        .object([("records", .array(ids.map {
            .object([("recordName", .string($0.recordName)), ("zoneID", RecordJSON.encode(zoneID: $0.zoneID))])
        }))])
    }

    public static func decodeLookup(_ json: JSONValue) throws(CloudError) -> (ids: [RecordID], desiredKeys: [String]?) {
        _ = try JSONFields.object(json, "the request")
        guard let items = try JSONFields.array(json, "records", required: true) else { throw JSONFields.bad("no records") }
        try checkCount(items.count, "records")
        let zone = try JSONFields.zoneID(json)
        var ids: [RecordID] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "records[\(index)]")
            guard let name = try JSONFields.string(item, "recordName", required: true) else { continue }
            ids.append(RecordID(recordName: name, zoneID: try JSONFields.zoneID(item) ?? zone ?? defaultZone))
        }
        return (ids, try JSONFields.desiredKeys(json))
    }

    /// `{records: [record | {recordName, zoneID, serverErrorCode: NOT_FOUND, reason}]}` in request order.
    public static func encodeLookupReply(_ ids: [RecordID], _ results: [RecordID: Result<Record, CloudError>],
                                         desiredKeys: [String]?, uuid: String) -> JSONValue {
        .object([("records", .array(ids.map { id in
            switch results[id] {
            case .success(let record): RecordJSON.encode(filter(record, desiredKeys))
            case .failure(let error): itemError(error, id: id, uuid: uuid)
            case nil: itemError(CloudError(.unknownItem, "record '\(id.recordName)' not found"), id: id, uuid: uuid)
            }
        }))])
    }

    /// The lookup reply keyed by the IDs asked for (matched by record and zone name).
    public static func decodeLookupReply(_ json: JSONValue, ids: [RecordID]) throws(CloudError) -> [RecordID: Result<Record, CloudError>] {
        var byName: [String: Result<Record, CloudError>] = [:]
        for entry in try JSONFields.array(json, "records", required: true) ?? [] {
            if entry["serverErrorCode"] != nil {
                let error = WebServicesError.decode(entry)
                guard let id = error.recordID else { throw malformedReply("a record error has no recordName") }
                byName[key(id)] = .failure(error)
            } else {
                let record = try RecordJSON.decodeRecord(entry)
                byName[key(record.recordID)] = .success(record)
            }
        }
        var out: [RecordID: Result<Record, CloudError>] = [:]
        for id in ids {
            out[id] = byName[key(id)] ?? .failure(CloudError(.unknownItem, "record '\(id.recordName)' not found", recordID: id))
        }
        return out
    }

    // MARK: records/query

    public static func encodeQuery(_ query: RecordQuery, owner: String) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: query.zoneName, ownerRecordName: owner))),
            ("query", QueryCodec.encode(recordType: query.recordType, predicate: query.predicate, sort: query.sort)),
        ]
        if let limit = query.limit { pairs.append(("resultsLimit", .int(Int64(limit)))) }
        if let marker = query.continuation { pairs.append(("continuationMarker", .string(marker))) }
        return .object(pairs)
    }

    public static func decodeQuery(_ json: JSONValue) throws(CloudError) -> (query: RecordQuery, desiredKeys: [String]?) {
        _ = try JSONFields.object(json, "the request")
        guard let queryJSON = json["query"] else { throw JSONFields.bad("'query' is required") }
        let (type, predicate, sort) = try QueryCodec.decode(queryJSON)
        if try JSONFields.bool(json, "zoneWide") == true {
            throw JSONFields.bad("zoneWide queries are not supported; query one zone at a time")
        }
        let zone = try JSONFields.zoneID(json) ?? defaultZone
        var limit: Int?
        if json["resultsLimit"] != nil {
            limit = try JSONFields.limit(json, "resultsLimit", default: CloudLimits.defaultPageSize, maximum: CloudLimits.maxPageSize)
        }
        let query = RecordQuery(recordType: type, predicate: predicate, sort: sort, zoneName: zone.zoneName, limit: limit,
                                continuation: try JSONFields.string(json, "continuationMarker"))
        return (query, try JSONFields.desiredKeys(json))
    }

    /// `{records, continuationMarker?}`.
    public static func encodeQueryReply(_ page: QueryPage, desiredKeys: [String]?) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("records", .array(page.records.map { RecordJSON.encode(filter($0, desiredKeys)) }))]
        if let marker = page.continuation { pairs.append(("continuationMarker", .string(marker))) }
        return .object(pairs)
    }

    public static func decodeQueryReply(_ json: JSONValue) throws(CloudError) -> QueryPage {
        var records: [Record] = []
        for entry in try JSONFields.array(json, "records", required: true) ?? [] {
            records.append(try RecordJSON.decodeRecord(entry))
        }
        return QueryPage(records: records, continuation: try JSONFields.string(json, "continuationMarker"))
    }

    // MARK: records/changes

    public static func encodeChanges(zoneID: ZoneID, since token: ServerChangeToken?, limit: Int) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("zoneID", RecordJSON.encode(zoneID: zoneID)), ("resultsLimit", .int(Int64(limit)))]
        if let token { pairs.append(("syncToken", .string(token.rawValue))) }
        return .object(pairs)
    }

    public static func decodeChanges(_ json: JSONValue) throws(CloudError)
        -> (zoneID: ZoneID, token: ServerChangeToken?, limit: Int, desiredKeys: [String]?) {
        _ = try JSONFields.object(json, "the request")
        return (try JSONFields.zoneID(json) ?? defaultZone, try JSONFields.token(json),
                try JSONFields.limit(json, "resultsLimit", default: CloudLimits.defaultPageSize, maximum: CloudLimits.maxPageSize),
                try JSONFields.desiredKeys(json))
    }

    /// `{zoneID, records: [changed…, {recordName, recordType, deleted: true, zoneID}…], syncToken, moreComing}`.
    public static func encodeChangesReply(_ changes: ZoneChanges, zoneID: ZoneID, desiredKeys: [String]?) -> JSONValue {
        var records = changes.changed.map { RecordJSON.encode(filter($0, desiredKeys)) }
        records += changes.deleted.map { RecordJSON.encodeDeletion($0.recordID, recordType: $0.recordType) }
        return .object([("zoneID", RecordJSON.encode(zoneID: zoneID)), ("records", .array(records)),
                        ("syncToken", .string(changes.token.rawValue)), ("moreComing", .bool(changes.moreComing))])
    }

    /// `encodeChangesReply(…).serialized()` as bytes, written directly: without `desiredKeys`, a
    /// changed record's fields are its stored text (`ZoneChanges.encodedFields`) copied in, not
    /// decoded and encoded again.
    public static func encodeChangesReplyBytes(_ changes: ZoneChanges, zoneID: ZoneID, desiredKeys: [String]?) -> [UInt8] {
        var out: [UInt8] = []
        // One allocation for the page: growing by doubling copied and faulted in the reply again.
        let fieldsBytes = changes.encodedFields.reduce(0) { $0 + ($1?.utf8.count ?? 256) }
        out.reserveCapacity(256 + fieldsBytes + changes.changed.count * 320 + changes.deleted.count * 160)
        out.append(contentsOf: #"{"zoneID":"#.utf8)
        RecordJSON.writeZoneID(zoneID, to: &out)
        out.append(contentsOf: #","records":["#.utf8)
        for (index, record) in changes.changed.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let text = desiredKeys == nil && index < changes.encodedFields.count ? changes.encodedFields[index] : nil
            RecordJSON.writeRecord(text == nil ? filter(record, desiredKeys) : record, fieldsText: text, to: &out)
        }
        for (index, deletion) in changes.deleted.enumerated() {
            if index > 0 || !changes.changed.isEmpty { out.append(UInt8(ascii: ",")) }
            RecordJSON.encodeDeletion(deletion.recordID, recordType: deletion.recordType).write(to: &out)
        }
        out.append(contentsOf: #"],"syncToken":"#.utf8)
        JSONValue.string(changes.token.rawValue).write(to: &out)
        out.append(contentsOf: #","moreComing":"#.utf8)
        out.append(contentsOf: (changes.moreComing ? "true" : "false").utf8)
        out.append(UInt8(ascii: "}"))
        return out
    }

    public static func decodeChangesReply(_ json: JSONValue) throws(CloudError) -> ZoneChanges {
        var changed: [Record] = []
        var deleted: [RecordDeletion] = []
        for entry in try JSONFields.array(json, "records", required: true) ?? [] {
            if entry["deleted"]?.boolValue == true {
                guard let name = entry["recordName"]?.stringValue else { throw malformedReply("a deletion has no recordName") }
                deleted.append(RecordDeletion(recordID: RecordID(recordName: name, zoneID: try JSONFields.zoneID(entry) ?? defaultZone),
                                              recordType: entry["recordType"]?.stringValue ?? ""))
            } else {
                changed.append(try RecordJSON.decodeRecord(entry))
            }
        }
        guard let token = try JSONFields.token(json) else { throw malformedReply("no syncToken") }
        return ZoneChanges(changed: changed, deleted: deleted, token: token,
                           moreComing: try JSONFields.bool(json, "moreComing") ?? false)
    }

    // MARK: Helpers

    package static let defaultZone = ZoneID(zoneName: ZoneID.defaultZoneName, ownerRecordName: ZoneID.currentUserOwner)

    package static func key(_ id: RecordID) -> String { id.zoneID.zoneName + "\u{0}" + id.recordName }

    /// More than `maxOperations` items is BAD_REQUEST (HTTP 400).
    package static func checkCount(_ count: Int, _ what: String) throws(CloudError) {
        guard count <= maxOperations else {
            throw CloudError(.limitExceeded, "\(count) \(what) in one request; at most \(maxOperations) are allowed")
        }
    }

    /// The record with only the `desiredKeys` fields (all of them when nil).
    package static func filter(_ record: Record, _ keys: [String]?) -> Record {
        guard let keys else { return record }
        var out = record
        out.fields = record.fields.filter { keys.contains($0.key) }
        return out
    }

    /// A per-record error dictionary.
    package static func itemError(_ error: CloudError, id: RecordID, uuid: String) -> JSONValue {
        var error = error
        error.recordID = id
        return WebServicesError.body(error, uuid: uuid)
    }

    package static func malformedReply(_ what: String) -> CloudError {
        CloudError(.internalError, "the server's reply is malformed: \(what)")
    }
}
