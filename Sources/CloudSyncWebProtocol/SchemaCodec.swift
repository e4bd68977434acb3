import CloudSyncCore

/// The JSON of the `schema/…` extension endpoints, both directions. A schema travels as its
/// .ckdb text (`SchemaPrinter`/`SchemaParser`); a diff as `changes: [{change, text, …}]`, each
/// change with its parts (`recordType`, `field {name, type, list, indexes}`, `fieldName`,
/// `from`/`to {type, list}`, `index`, `role`, `permission`) and `text`, its one-line form; a
/// deploy check as `{changes, violations: [{violation, text, …}], deployed}`.
package enum SchemaCodec {
    package static func malformed(_ what: String) -> CloudError { RecordsCodec.malformedReply(what) }

    // MARK: Schemas

    /// `{schema: ".ckdb text"}`.
    package static func encodeSchema(_ schema: CloudSchema) -> JSONValue {
        .object([("schema", .string(SchemaPrinter.print(schema)))])
    }

    /// The schema of a request or reply: bad .ckdb text is 400 BAD_REQUEST with the parser's
    /// line and column.
    package static func decodeSchema(_ json: JSONValue) throws(CloudError) -> CloudSchema {
        _ = try JSONFields.object(json, "the request")
        guard let text = try JSONFields.string(json, "schema", required: true) else { throw JSONFields.bad("schema is missing") }
        do {
            return try SchemaParser.parse(text)
        } catch {
            throw CloudError(.invalidArguments, "schema: \(error)")
        }
    }

    // MARK: Diffs

    package static func type(_ type: SchemaFieldType) -> JSONValue {
        .object([("type", .string(type.primitive.rawValue)), ("list", .bool(type.isList))])
    }

    package static func decodeType(_ json: JSONValue?) throws(CloudError) -> SchemaFieldType {
        guard let raw = json?["type"]?.stringValue, let primitive = SchemaPrimitiveType(rawValue: raw) else {
            throw malformed("a schema change has no known field type")
        }
        return SchemaFieldType(primitive, isList: json?["list"]?.boolValue ?? false)
    }

    package static func field(_ field: FieldSchema) -> JSONValue {
        .object([("name", .string(field.name)), ("type", .string(field.type.primitive.rawValue)), ("list", .bool(field.type.isList)),
                 ("indexes", .array(field.attributes.sorted().map { .string($0.rawValue) }))])
    }

    package static func decodeField(_ json: JSONValue?) throws(CloudError) -> FieldSchema {
        guard let name = json?["name"]?.stringValue else { throw malformed("a schema change has a field without a name") }
        var attributes: Set<FieldAttribute> = []
        for item in json?["indexes"]?.arrayValue ?? [] {
            guard let raw = item.stringValue, let attribute = FieldAttribute(rawValue: raw) else {
                throw malformed("a schema change has an unknown index")
            }
            attributes.insert(attribute)
        }
        return FieldSchema(name: name, type: try decodeType(json), attributes: attributes)
    }

    package static func encode(_ change: SchemaChange) -> JSONValue {
        var out: [(String, JSONValue)] = []
        func kind(_ name: String) { out.append(("change", .string(name))) }
        switch change {
        case .roleAdded(let r): kind("roleAdded"); out.append(("role", .string(r.rawValue)))
        case .roleRemoved(let r): kind("roleRemoved"); out.append(("role", .string(r.rawValue)))
        case .recordTypeAdded(let t): kind("recordTypeAdded"); out.append(("recordType", .string(t)))
        case .recordTypeRemoved(let t): kind("recordTypeRemoved"); out.append(("recordType", .string(t)))
        case .fieldAdded(let t, let f): kind("fieldAdded"); out += [("recordType", .string(t)), ("field", field(f))]
        case .fieldRemoved(let t, let f): kind("fieldRemoved"); out += [("recordType", .string(t)), ("field", field(f))]
        case .fieldTypeChanged(let t, let f, let from, let to):
            kind("fieldTypeChanged")
            out += [("recordType", .string(t)), ("fieldName", .string(f)), ("from", type(from)), ("to", type(to))]
        case .indexAdded(let t, let f, let a):
            kind("indexAdded"); out += [("recordType", .string(t)), ("fieldName", .string(f)), ("index", .string(a.rawValue))]
        case .indexRemoved(let t, let f, let a):
            kind("indexRemoved"); out += [("recordType", .string(t)), ("fieldName", .string(f)), ("index", .string(a.rawValue))]
        case .grantAdded(let t, let r, let p):
            kind("grantAdded"); out += [("recordType", .string(t)), ("role", .string(r.rawValue)), ("permission", .string(p.rawValue))]
        case .grantRemoved(let t, let r, let p):
            kind("grantRemoved"); out += [("recordType", .string(t)), ("role", .string(r.rawValue)), ("permission", .string(p.rawValue))]
        }
        out.append(("text", .string(change.description)))
        return .object(out)
    }

    package static func decodeChange(_ json: JSONValue) throws(CloudError) -> SchemaChange {
        let kind = json["change"]?.stringValue ?? ""
        let recordType = json["recordType"]?.stringValue ?? ""
        let fieldName = json["fieldName"]?.stringValue ?? ""
        let role = SchemaRole(json["role"]?.stringValue ?? "")
        func index() throws(CloudError) -> FieldAttribute {
            guard let a = json["index"]?.stringValue.flatMap(FieldAttribute.init(rawValue:)) else { throw malformed("a schema change has no known index") }
            return a
        }
        func permission() throws(CloudError) -> SchemaPermission {
            guard let p = json["permission"]?.stringValue.flatMap(SchemaPermission.init(rawValue:)) else {
                throw malformed("a schema change has no known permission")
            }
            return p
        }
        switch kind {
        case "roleAdded": return .roleAdded(role)
        case "roleRemoved": return .roleRemoved(role)
        case "recordTypeAdded": return .recordTypeAdded(recordType)
        case "recordTypeRemoved": return .recordTypeRemoved(recordType)
        case "fieldAdded": return .fieldAdded(recordType: recordType, field: try decodeField(json["field"]))
        case "fieldRemoved": return .fieldRemoved(recordType: recordType, field: try decodeField(json["field"]))
        case "fieldTypeChanged":
            return .fieldTypeChanged(recordType: recordType, field: fieldName, from: try decodeType(json["from"]), to: try decodeType(json["to"]))
        case "indexAdded": return .indexAdded(recordType: recordType, field: fieldName, try index())
        case "indexRemoved": return .indexRemoved(recordType: recordType, field: fieldName, try index())
        case "grantAdded": return .grantAdded(recordType: recordType, role: role, try permission())
        case "grantRemoved": return .grantRemoved(recordType: recordType, role: role, try permission())
        default: throw malformed("unknown schema change \(NameRules.quoted(kind))")
        }
    }

    /// `{changes: [...], applied}`.
    package static func encodeDiff(_ diff: SchemaDiff, applied: Bool) -> JSONValue {
        .object([("changes", .array(diff.changes.map(encode))), ("applied", .bool(applied))])
    }

    package static func decodeDiff(_ json: JSONValue) throws(CloudError) -> SchemaDiff {
        guard let items = json["changes"]?.arrayValue else { throw malformed("the schema reply has no changes") }
        var diff = SchemaDiff(from: CloudSchema(), to: CloudSchema())
        diff.changes = []
        for item in items { diff.changes.append(try decodeChange(item)) }
        return diff
    }

    // MARK: Deploy checks

    package static func encode(_ violation: SchemaDeployViolation) -> JSONValue {
        var out: [(String, JSONValue)]
        switch violation {
        case .recordTypeRemoved(let t): out = [("violation", .string("recordTypeRemoved")), ("recordType", .string(t))]
        case .fieldRemoved(let t, let f):
            out = [("violation", .string("fieldRemoved")), ("recordType", .string(t)), ("fieldName", .string(f))]
        case .fieldTypeChanged(let t, let f, let from, let to):
            out = [("violation", .string("fieldTypeChanged")), ("recordType", .string(t)), ("fieldName", .string(f)),
                   ("from", type(from)), ("to", type(to))]
        case .grantWidened(let t, let r, let p):
            out = [("violation", .string("grantWidened")), ("recordType", .string(t)), ("role", .string(r.rawValue)),
                   ("permission", .string(p.rawValue))]
        }
        out.append(("text", .string(violation.description)))
        return .object(out)
    }

    package static func decodeViolation(_ json: JSONValue) throws(CloudError) -> SchemaDeployViolation {
        let recordType = json["recordType"]?.stringValue ?? ""
        let fieldName = json["fieldName"]?.stringValue ?? ""
        switch json["violation"]?.stringValue ?? "" {
        case "recordTypeRemoved": return .recordTypeRemoved(recordType)
        case "fieldRemoved": return .fieldRemoved(recordType: recordType, field: fieldName)
        case "fieldTypeChanged":
            return .fieldTypeChanged(recordType: recordType, field: fieldName, from: try decodeType(json["from"]), to: try decodeType(json["to"]))
        case "grantWidened":
            guard let role = json["role"]?.stringValue, let permission = json["permission"]?.stringValue.flatMap(SchemaPermission.init) else {
                throw malformed("a grantWidened violation needs its role and permission")
            }
            return .grantWidened(recordType: recordType, role: SchemaRole(role), permission: permission)
        default: throw malformed("unknown deploy violation")
        }
    }

    /// `{changes, violations, widerGrants, deployed}`.
    package static func encodeCheck(_ check: SchemaDeployCheck, deployed: Bool) -> JSONValue {
        .object([("changes", .array(check.diff.changes.map(encode))), ("violations", .array(check.violations.map(encode))),
                 ("widerGrants", .array(check.widerGrants.map(encode))), ("deployed", .bool(deployed))])
    }

    package static func decodeCheck(_ json: JSONValue) throws(CloudError) -> SchemaDeployCheck {
        var check = SchemaDeployCheck(development: CloudSchema(), production: CloudSchema())
        check.diff = try decodeDiff(json)
        guard let items = json["violations"]?.arrayValue else { throw malformed("the deploy reply has no violations") }
        check.violations = []
        for item in items { check.violations.append(try decodeViolation(item)) }
        check.widerGrants = []
        for item in json["widerGrants"]?.arrayValue ?? [] { check.widerGrants.append(try decodeViolation(item)) }
        return check
    }
}
