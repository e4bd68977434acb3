import CloudSyncCore

extension StorageBackedCloud: SchemaService {
    public func schema(container: String, environment: CloudEnvironment) throws(CloudError) -> CloudSchema {
        try read { tx in try effectiveSchema(environment.storageContainer(container), tx) }
    }

    public func importSchema(_ schema: CloudSchema, container: String, dryRun: Bool, by caller: Caller) throws(CloudError) -> SchemaDiff {
        let key = CloudEnvironment.development.storageContainer(container)
        let diff = try write { tx in
            if !dryRun { try requireAdministrator(caller, of: container, act: "importing the schema", tx) }
            let diff = SchemaDiff(from: try effectiveSchema(key, tx), to: schema)
            if !dryRun { try storeSchema(schema, key: key, tx) }
            return diff
        }
        forgetSchemas()
        return diff
    }

    public func deploySchema(container: String, dryRun: Bool, allowWiderGrants: Bool,
                             by caller: Caller) throws(CloudError) -> SchemaDeployCheck {
        let check = try write { tx in
            if !dryRun { try requireAdministrator(caller, of: container, act: "deploying the schema", tx) }
            let development = try effectiveSchema(CloudEnvironment.development.storageContainer(container), tx)
            let production = try effectiveSchema(CloudEnvironment.production.storageContainer(container), tx)
            let check = SchemaDeployCheck(development: development, production: production, allowWiderGrants: allowWiderGrants)
            if check.isAllowed && !dryRun {
                try storeSchema(development, key: CloudEnvironment.production.storageContainer(container), tx)
            }
            return check
        }
        forgetSchemas()
        return check
    }

    public func resetDevelopment(container: String, by caller: Caller) throws(CloudError) {
        let key = CloudEnvironment.development.storageContainer(container)
        try write { tx in
            try requireAdministrator(caller, of: container, act: "resetting development", tx)
            for db in try tx.databases(container: key) {
                for zone in try tx.liveZones(dbID: db.id) {
                    try tx.deleteZone(zone, dbID: db.id, purge: false, dbSeq: try tx.nextDatabaseSeq(db.id))
                }
                _ = try tx.createZone(ZoneID.defaultZoneName, atomic: false, dbID: db.id,
                                      dbSeq: try tx.nextDatabaseSeq(db.id), now: clock())
            }
            try tx.removeSchemaFields(container: key)
            try tx.setDeclaredSchema(nil, container: key)
        }
        forgetSchemas()
    }

    // MARK: Helpers

    func forgetSchemas() {
        schemaCache.withLock { $0.removeAll() }
        declaredCache.withLock { $0.removeAll() }
    }

    /// The declared schema of a container key, or nil when none was declared.
    func declaredSchema(_ key: String, _ tx: any CloudStorageTransaction) throws -> CloudSchema? {
        guard let text = try tx.declaredSchema(container: key) else { return nil }
        if let cached = declaredCache.withLock({ $0[key] }), cached.text == text { return cached.schema }
        let parsed: CloudSchema
        do {
            parsed = try SchemaParser.parse(text)
        } catch {
            throw CloudError(.badDatabase, "the stored schema of \(key) does not parse: \(error.description)")
        }
        declaredCache.withLock { $0[key] = DeclaredSchemaEntry(text: text, schema: parsed) }
        return parsed
    }

    /// The declared schema plus the fields that grew on save.
    func effectiveSchema(_ key: String, _ tx: any CloudStorageTransaction) throws -> CloudSchema {
        var schema = try declaredSchema(key, tx) ?? CloudSchema()
        for (typeName, fields) in try tx.allSchemaFields(container: key) {
            var type = schema.recordType(named: typeName) ?? RecordTypeSchema(name: typeName)
            for (name, stored) in fields where type.field(named: name) == nil {
                type.setField(FieldSchema(name: name, type: SchemaFieldType(stored: stored)))
            }
            schema.setRecordType(type)
        }
        return schema
    }

    /// Stores `schema` as the declared schema of `key`, and its fields as the grown ones (so
    /// that saves check their types the usual way).
    func storeSchema(_ schema: CloudSchema, key: String, _ tx: any CloudStorageTransaction) throws {
        try tx.removeSchemaFields(container: key)
        try tx.setDeclaredSchema(SchemaPrinter.print(schema), container: key)
        for type in schema.sortedRecordTypes {
            for field in type.userFields {
                guard let stored = field.type.storedType else { continue }
                _ = try tx.addSchemaFieldIfAbsent(container: key, recordType: type.name, field: field.name, type: stored)
            }
        }
    }
}
