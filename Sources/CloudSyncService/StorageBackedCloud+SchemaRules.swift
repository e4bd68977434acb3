import CloudSyncCore

/// The schema's rules on saves, reads and queries: production's declared types, fields and
/// indexes, and the grants of public-database record types.
extension StorageBackedCloud {
    /// The declared schema that rules this call, or nil when none does: production always has
    /// one (empty until deployed); the public database of development when one was imported.
    func rulingSchema(_ request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> CloudSchema? {
        guard request.environment == .production || request.scope == .public else { return nil }
        let declared = try declaredSchema(request.storageContainer, tx)
        return request.environment == .production ? declared ?? CloudSchema() : declared
    }

    /// The roles the caller has on a record created by `creator` (nil: a new record): anyone
    /// (`_world`), a signed-in account (`_icloud`), and `_creator` for the record's creator.
    func callerRoles(creator: String?, _ request: DatabaseRequest) -> [SchemaRole] {
        var roles: [SchemaRole] = [.world]
        if !request.userRecordName.isEmpty { roles.append(.icloud) }
        if let creator, creator == request.userRecordName { roles.append(.creator) }
        return roles
    }

    /// Checks the grants of the public database for `permission` on a record of `recordType`.
    /// Without a declared type, CloudKit's defaults: anyone reads, any account creates, the
    /// creator writes.
    func requirePermission(_ permission: SchemaPermission, recordType: String, recordName: String, creator: String?,
                           schema: CloudSchema?, _ request: DatabaseRequest) throws {
        guard request.scope == .public else { return }
        let type = schema?.recordType(named: recordType) ?? RecordTypeSchema(name: recordType)
        let roles = callerRoles(creator: creator, request)
        guard !type.allows(permission, toAnyOf: roles) else { return }
        switch permission {
        case .create:
            throw CloudError(.permissionFailure,
                             "\(recordType) records cannot be created from a device: the schema grants CREATE on \(recordType) to neither _icloud nor _world")
        case .write:
            throw CloudError(.permissionFailure,
                             type.declaresGrants
                                ? "record '\(recordName)' cannot be changed: the schema grants you no WRITE on \(recordType)"
                                : "record '\(recordName)' in the public database can be changed only by its creator")
        case .read:
            throw CloudError(.permissionFailure,
                             "record '\(recordName)' cannot be read: the schema grants you no READ on \(recordType)")
        }
    }

    /// Whether the caller may read `record` (public database grants).
    func mayRead(_ record: Record, schema: CloudSchema?, _ request: DatabaseRequest) -> Bool {
        guard request.scope == .public, let type = schema?.recordType(named: record.recordType) else { return true }
        return type.allows(.read, toAnyOf: callerRoles(creator: record.system?.created.userRecordName, request))
    }

    /// Production: the record's type and fields must be declared and its values of the declared
    /// types. Development grows the schema instead (`checkSchema`).
    func checkFields(_ record: Record, fields: [String: FieldValue], schema: CloudSchema?, _ request: DatabaseRequest,
                     _ tx: any CloudStorageTransaction) throws {
        guard request.environment == .production else {
            try checkSchema(container: request.storageContainer, recordType: record.recordType, fields: fields, tx)
            return
        }
        guard let type = schema?.recordType(named: record.recordType) else {
            throw CloudError(.invalidArguments,
                             "record type \(record.recordType) is not in the production schema; add it in development and run 'cloudsync schema deploy'")
        }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard let field = type.field(named: name), !field.isSystem else {
                throw CloudError(.invalidArguments,
                                 "field '\(name)' of \(record.recordType) is not in the production schema; add it in development and run 'cloudsync schema deploy'")
            }
            guard field.type.accepts(value.typeName) else {
                throw CloudError(.invalidArguments,
                                 "field '\(name)' of \(record.recordType) is \(field.type) in the production schema; got \(value.typeName)")
            }
        }
    }

    /// Production: every filtered field needs QUERYABLE (a range comparison SORTABLE) and every
    /// sorted one SORTABLE; `recordName` is the system field `___recordID`.
    func checkQueryIndexes(_ query: RecordQuery, schema: CloudSchema?, _ request: DatabaseRequest) throws {
        guard request.environment == .production else { return }
        guard let type = schema?.recordType(named: query.recordType) else {
            throw CloudError(.invalidArguments,
                             "record type \(query.recordType) is not in the production schema; add it in development and run 'cloudsync schema deploy'")
        }
        func require(_ key: String, _ attribute: FieldAttribute, _ use: String) throws {
            if key == TokenSearch.key {
                guard !type.sortedFields.contains(where: \.isSearchable) else { return }
                throw CloudError(.invalidArguments,
                                 "\(query.recordType) has no SEARCHABLE field in the production schema, so 'self CONTAINS' cannot search it; add SEARCHABLE to a STRING field of \(query.recordType) and deploy")
            }
            let field = Self.schemaFieldName(forKey: key)
            guard let declared = type.field(named: field) else {
                throw CloudError(.invalidArguments, "field '\(key)' of \(query.recordType) is not in the production schema")
            }
            guard !declared.attributes.contains(attribute) else { return }
            throw CloudError(.invalidArguments,
                             "field '\(key)' of \(query.recordType) is not \(attribute.rawValue) in the production schema, so it cannot be \(use); add the index '\(field) \(attribute.rawValue)' to \(query.recordType) and deploy")
        }
        var pending = [query.predicate]
        while let predicate = pending.popLast() {
            switch predicate {
            case .truePredicate: break
            case .and(let parts): pending += parts
            case .not(let inner): pending.append(inner)
            case .comparison(let key, let op, _):
                switch op {
                case .less, .lessOrEqual, .greater, .greaterOrEqual: try require(key, .sortable, "compared by range")
                default: try require(key, .queryable, "filtered on")
                }
            }
        }
        for sort in query.sort { try require(sort.field, .sortable, "sorted on") }
    }

    /// The schema field a predicate key names: the system keys are `___recordID`,
    /// `___createTime` and `___modTime`.
    static func schemaFieldName(forKey key: String) -> String {
        switch key {
        case PredicateKeys.recordName: FieldSchema.recordIDField
        case PredicateKeys.creationDate: "___createTime"
        case PredicateKeys.modificationDate: "___modTime"
        default: key
        }
    }
}
