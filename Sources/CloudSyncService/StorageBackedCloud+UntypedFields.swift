import CloudSyncCore

/// Typing of field values saved without a `type` (CloudKit Web Services: "optional when saving a
/// record"). The rule lives here, where the schema is known, and nowhere else: a field the
/// schema knows takes the schema's type, its value converted (a number to DOUBLE, TIMESTAMP in
/// epoch milliseconds or INT64; a string to BYTES in base64, or to a REFERENCE by record name;
/// an object to an ASSETID, REFERENCE or LOCATION); a field it does not know is typed by its
/// shape (`RecordJSON.inferType`). A value that still cannot be typed fails its record alone.
extension StorageBackedCloud {
    /// `record` with `untyped` typed and added to its fields; throws the record's BAD_REQUEST.
    func typingUntypedFields(_ record: Record, _ untyped: [String: JSONValue], _ request: DatabaseRequest,
                             _ tx: any CloudStorageTransaction) throws -> Record {
        let known = try schemaTypes(of: record.recordType, request, tx)
        var typed = record
        for (name, json) in untyped {
            typed.fields[name] = try UntypedFieldValue.value(json, as: known(name), field: name)
        }
        return typed
    }

    /// The schema's type of each field of `recordType`, nil for a field it does not know (or a
    /// production `NUMBER`, which takes INT64 or DOUBLE by shape): production's declared schema;
    /// development's schema as saves grew it.
    func schemaTypes(of recordType: String, _ request: DatabaseRequest,
                     _ tx: any CloudStorageTransaction) throws -> (String) -> FieldTypeName? {
        if request.environment == .production {
            let type = try rulingSchema(request, tx)?.recordType(named: recordType)
            return { type?.field(named: $0)?.type.storedType }
        }
        let key = SchemaKey(container: request.storageContainer, recordType: recordType)
        let known: [String: FieldTypeName]
        if let cached = schemaCache.withLock({ $0[key] }) {
            known = cached
        } else {
            known = try tx.schemaFields(container: request.storageContainer, recordType: recordType)
            schemaCache.withLock { $0[key] = known }
        }
        return { known[$0] }
    }
}

/// The conversion of one untyped value to a field value of a given type.
enum UntypedFieldValue {
    /// `json` as a value of `type`; of its shape's type when `type` is nil. BAD_REQUEST when it
    /// is neither.
    static func value(_ json: JSONValue, as type: FieldTypeName?, field: String) throws(CloudError) -> FieldValue {
        let type = if let type { type } else { try RecordJSON.inferType(json, field: field) }
        guard type.isList else { return try element(json, as: type.element, field: field) }
        guard let items = json.arrayValue else {
            throw CloudError(.invalidArguments, "field '\(field)': \(type) value must be an array, got \(json.kindName)")
        }
        var values: [FieldValue] = []
        values.reserveCapacity(items.count)
        for item in items { values.append(try element(item, as: type.element, field: field)) }
        return .list(type.element, values)
    }

    /// One scalar: a string is a REFERENCE's record name; the rest as `RecordJSON.decodeValue`
    /// reads it (a DOUBLE takes an integer, a TIMESTAMP epoch milliseconds, BYTES base64).
    static func element(_ json: JSONValue, as type: FieldType, field: String) throws(CloudError) -> FieldValue {
        if type == .reference, let name = json.stringValue {
            return try RecordJSON.decodeValue(.object([("recordName", .string(name))]), type: FieldTypeName(.reference), field: field)
        }
        return try RecordJSON.decodeValue(json, type: FieldTypeName(type), field: field)
    }
}
