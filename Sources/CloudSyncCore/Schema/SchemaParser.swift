/// Reads the CloudKit Schema Language, as Apple documents it in "Integrating a Text-Based Schema
/// into Your Workflow":
///
///     create-schema:  DEFINE SCHEMA [ { create-role | record-type } ";" ] ...
///     create-role:    CREATE ROLE %role-name%
///     record-type:    RECORD TYPE %type-name% (
///                       { [ %field-name% data-type [ field-options [..] ] ]
///                       | [ GRANT { READ | CREATE | WRITE } [, ... ] TO %role-name% ] } [ "," ... ] )
///     field-options:  QUERYABLE | SORTABLE | SEARCHABLE
///     data-type:      primitive-type | LIST "<" primitive-type ">"
///     primitive-type: ASSET | BYTES | DOUBLE | [ ENCRYPTED ] { BYTES | STRING | DOUBLE | INT64 | LOCATION | TIMESTAMP }
///                     | INT64 | LOCATION | NUMBER [ PREFERRED AS { INT64 | DOUBLE } ] | REFERENCE | STRING | TIMESTAMP
///
/// Keywords and type names are case-insensitive; names are case-sensitive. Plain names are
/// `[A-Za-z][A-Za-z0-9_]*`; anything else (system fields, `"grant"`, `"cloudkit.share"`) is
/// double-quoted. Comments: `//` and `--` to the end of the line, `/* … */`. Also accepted, as
/// people write them: `ENCRYPTED_STRING` for `ENCRYPTED STRING`, a missing `;` after the last
/// statement, stray `;`, a `,` before a record type's `)`, and an unquoted `_world` (or other
/// `_` role) after `GRANT … TO`.
///
/// Checked beyond the grammar: duplicate types, fields and roles; system fields keep their types;
/// other names may not start with `_`; index attributes only where the type can have them
/// (`FieldSchema.allows`); grants only to implicit or created roles. Input is bounded
/// (`Limits`); the parser never recurses, so no input can exhaust the stack.
public struct SchemaParser {
    /// Bounds on what one schema may hold.
    public struct Limits: Sendable, Hashable {
        public var maxBytes: Int
        public var maxRecordTypes: Int
        public var maxFieldsPerType: Int
        public var maxRoles: Int

        public init(maxBytes: Int = 4 << 20, maxRecordTypes: Int = 2_000, maxFieldsPerType: Int = 1_000,
                    maxRoles: Int = 500) {
            self.maxBytes = maxBytes
            self.maxRecordTypes = maxRecordTypes
            self.maxFieldsPerType = maxFieldsPerType
            self.maxRoles = maxRoles
        }

        /// 4 MiB of text, 2,000 record types, 1,000 fields a type, 500 roles.
        public static let standard = Limits()
    }

    /// Parses .ckdb text into a schema, or throws the first error in reading order.
    public static func parse(_ text: String, limits: Limits = .standard) throws(SchemaError) -> CloudSchema {
        if text.utf8.count > limits.maxBytes {
            throw SchemaError(line: 1, column: 1,
                              kind: .limitExceeded("schema text is larger than \(limits.maxBytes) bytes"))
        }
        var parser = SchemaParser(text, limits: limits)
        return try parser.parseSchema()
    }

    var lexer: SchemaLexer
    var current: SchemaToken
    var lookahead: SchemaToken?
    let limits: Limits
    var schema = CloudSchema()
    /// Every role named in a grant, checked once all `CREATE ROLE`s are known.
    var grantedRoles: [(role: SchemaRole, token: SchemaToken)] = []

    init(_ text: String, limits: Limits) {
        lexer = SchemaLexer(text)
        current = SchemaToken(kind: .end, line: 1, column: 1)
        self.limits = limits
    }

    // MARK: Tokens

    mutating func advance() throws(SchemaError) {
        if let next = lookahead {
            current = next
            lookahead = nil
        } else {
            current = try lexer.next()
        }
    }

    mutating func peek() throws(SchemaError) -> SchemaToken {
        if let next = lookahead { return next }
        let next = try lexer.next()
        lookahead = next
        return next
    }

    func error(_ token: SchemaToken, _ kind: SchemaError.Kind) -> SchemaError {
        SchemaError(line: token.line, column: token.column, kind: kind)
    }

    func expected(_ what: String) -> SchemaError {
        error(current, .syntax("expected \(what), found \(current.shown)"))
    }

    mutating func expectKeyword(_ keyword: String, _ what: String? = nil) throws(SchemaError) {
        guard current.isKeyword(keyword) else { throw expected(what ?? keyword) }
        try advance()
    }

    mutating func expectSymbol(_ symbol: Character) throws(SchemaError) {
        guard current.isSymbol(symbol) else { throw expected("'\(symbol)'") }
        try advance()
    }

    /// A name: a quoted one, or a plain word that is not reserved.
    mutating func name(_ what: String) throws(SchemaError) -> (String, SchemaToken) {
        let token = current
        switch token.kind {
        case .quoted(let name):
            try advance()
            return (name, token)
        case .word(let word):
            if SchemaName.reserved.contains(word.uppercased()) {
                throw error(token, .syntax("expected \(what), found the reserved word \(token.shown) (quote it to use it as a name)"))
            }
            if word.hasPrefix("_") {
                throw error(token, .syntax("\(token.shown) must be quoted: plain names start with a letter"))
            }
            try advance()
            return (word, token)
        default:
            throw expected(what)
        }
    }

    // MARK: Statements

    mutating func parseSchema() throws(SchemaError) -> CloudSchema {
        try advance()
        try expectKeyword("DEFINE", "DEFINE SCHEMA")
        try expectKeyword("SCHEMA")
        while true {
            while current.isSymbol(";") { try advance() }
            if current.kind == .end { break }
            if current.isKeyword("CREATE") {
                try parseCreateRole()
            } else if current.isKeyword("RECORD") {
                try parseRecordType()
            } else {
                throw expected("RECORD TYPE or CREATE ROLE")
            }
            guard current.isSymbol(";") || current.kind == .end else { throw expected("';'") }
        }
        for (role, token) in grantedRoles where !schema.knows(role) {
            let known = SchemaRole.builtIn.map(\.rawValue) + schema.sortedRoles.map(\.rawValue)
            throw error(token, .unknownRole(role.rawValue, suggestion: SchemaSuggestion.closest(to: role.rawValue, in: known)))
        }
        return schema
    }

    mutating func parseCreateRole() throws(SchemaError) {
        try advance()
        try expectKeyword("ROLE")
        let (name, token) = try name("a role name")
        let role = SchemaRole(name)
        if role.isBuiltIn || schema.roles.contains(role) { throw error(token, .duplicateRole(name)) }
        if name.hasPrefix("_") { throw error(token, .reservedName(name)) }
        if schema.roles.count >= limits.maxRoles {
            throw error(token, .limitExceeded("more than \(limits.maxRoles) roles"))
        }
        schema.roles.insert(role)
    }

    mutating func parseRecordType() throws(SchemaError) {
        try advance()
        try expectKeyword("TYPE")
        let (name, nameToken) = try name("a record type name")
        if schema.recordTypes[name] != nil { throw error(nameToken, .duplicateRecordType(name)) }
        if schema.recordTypes.count >= limits.maxRecordTypes {
            throw error(nameToken, .limitExceeded("more than \(limits.maxRecordTypes) record types"))
        }
        try expectSymbol("(")
        var type = RecordTypeSchema(name: name)
        var listed: Set<String> = []
        while !current.isSymbol(")") {
            if current.isKeyword("GRANT") {
                try parseGrant(into: &type)
            } else {
                let field = try parseField()
                if !listed.insert(field.0.name).inserted {
                    throw error(field.1, .duplicateField(recordType: name, field: field.0.name))
                }
                if listed.count > limits.maxFieldsPerType {
                    throw error(field.1, .limitExceeded("more than \(limits.maxFieldsPerType) fields in one record type"))
                }
                type.setField(field.0)
            }
            if current.isSymbol(",") {
                try advance()
            } else if !current.isSymbol(")") {
                throw expected("',' or ')'")
            }
        }
        try advance()
        schema.setRecordType(type)
    }

    mutating func parseField() throws(SchemaError) -> (FieldSchema, SchemaToken) {
        let (name, nameToken) = try name("a field name or GRANT")
        let type = try parseType()
        if let fixed = FieldSchema.systemFieldTypes[name] {
            if fixed != type { throw error(nameToken, .systemFieldType(field: name, expected: fixed, found: type)) }
        } else if name.hasPrefix("_") {
            throw error(nameToken, .reservedName(name))
        }
        var attributes: Set<FieldAttribute> = []
        while case .word(let word) = current.kind {
            guard let attribute = FieldAttribute(rawValue: word.uppercased()) else {
                let suggestion = SchemaSuggestion.closest(to: word, in: FieldAttribute.allCases.map(\.rawValue))
                if let suggestion {
                    throw error(current, .syntax("unknown attribute \(current.shown); did you mean \(suggestion)?"))
                }
                throw expected("QUERYABLE, SORTABLE, SEARCHABLE, ',' or ')'")
            }
            if !type.allows(attribute) {
                throw error(current, .attributeNotAllowed(attribute, field: name, type: type))
            }
            attributes.insert(attribute)
            try advance()
        }
        return (FieldSchema(name: name, type: type, attributes: attributes), nameToken)
    }

    /// `primitive-type` or `LIST<primitive-type>`, without recursion: lists do not nest.
    mutating func parseType() throws(SchemaError) -> SchemaFieldType {
        if current.isKeyword("LIST") {
            try advance()
            try expectSymbol("<")
            if current.isKeyword("LIST") { throw error(current, .nestedList) }
            let element = try parsePrimitive()
            try expectSymbol(">")
            return SchemaFieldType(element, isList: true)
        }
        return SchemaFieldType(try parsePrimitive())
    }

    static let typeNames: [String] = SchemaPrimitiveType.allCases.map(\.rawValue).filter { !$0.hasPrefix("NUMBER_") } + ["LIST"]

    mutating func parsePrimitive() throws(SchemaError) -> SchemaPrimitiveType {
        guard let word = current.keyword else { throw expected("a field type") }
        let token = current
        try advance()
        switch word {
        case "ENCRYPTED":
            guard let plain = current.keyword.flatMap(SchemaPrimitiveType.init(rawValue:)),
                  let encrypted = SchemaPrimitiveType.encrypted(plain) else {
                throw expected("BYTES, STRING, DOUBLE, INT64, LOCATION or TIMESTAMP after ENCRYPTED")
            }
            try advance()
            return encrypted
        case "NUMBER":
            guard current.isKeyword("PREFERRED") else { return .number }
            try advance()
            try expectKeyword("AS")
            if current.isKeyword("INT64") {
                try advance()
                return .numberAsInt64
            }
            if current.isKeyword("DOUBLE") {
                try advance()
                return .numberAsDouble
            }
            throw expected("INT64 or DOUBLE after PREFERRED AS")
        case "LIST":
            throw error(token, .nestedList)
        default:
            if let type = SchemaPrimitiveType(rawValue: word), !word.hasPrefix("NUMBER_") { return type }
            let original: String
            if case .word(let w) = token.kind { original = w } else { original = word }
            throw error(token, .unknownType(original, suggestion: SchemaSuggestion.closest(to: word, in: Self.typeNames)))
        }
    }

    mutating func parseGrant(into type: inout RecordTypeSchema) throws(SchemaError) {
        try advance()
        var permissions: Set<SchemaPermission> = []
        while true {
            guard let permission = current.keyword.flatMap(SchemaPermission.init(rawValue:)) else {
                throw expected("READ, CREATE or WRITE")
            }
            permissions.insert(permission)
            try advance()
            guard current.isSymbol(","),
                  let next = try peek().keyword, SchemaPermission(rawValue: next) != nil else { break }
            try advance()
        }
        try expectKeyword("TO")
        let token = current
        let (name, _) = try roleName()
        let role = SchemaRole(name)
        grantedRoles.append((role, token))
        type.grants[role, default: []].formUnion(permissions)
    }

    /// A role in a grant: quoted (`"_world"`) or plain.
    mutating func roleName() throws(SchemaError) -> (String, SchemaToken) {
        if case .word(let word) = current.kind, word.hasPrefix("_") {
            let token = current
            try advance()
            return (word, token)  // an unquoted `_world`: lenient, the role check still applies
        }
        return try name("a role name")
    }
}
