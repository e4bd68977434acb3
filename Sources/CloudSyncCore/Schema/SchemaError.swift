/// Why .ckdb text was refused, and where: `FILE:LINE:COLUMN: message`, one line.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Kind: Sendable, Hashable {
        /// Not the grammar: what was expected and what was found.
        case syntax(String)
        /// A field type that does not exist (`STRNG`), with the closest real one.
        case unknownType(String, suggestion: String?)
        /// A field listed twice in one record type.
        case duplicateField(recordType: String, field: String)
        /// A record type defined twice.
        case duplicateRecordType(String)
        /// A role created twice, or created with an implicit role's name.
        case duplicateRole(String)
        /// An index attribute the field's type cannot have (`SORTABLE` on an `ASSET`).
        case attributeNotAllowed(FieldAttribute, field: String, type: SchemaFieldType)
        /// A grant to a role that is neither implicit nor created, with the closest known one.
        case unknownRole(String, suggestion: String?)
        /// A system field listed with a type other than its fixed one.
        case systemFieldType(field: String, expected: SchemaFieldType, found: SchemaFieldType)
        /// A field name starting with `_` that is not a system field.
        case reservedName(String)
        /// `LIST<LIST<…>>`: lists do not nest.
        case nestedList
        /// A `"` with no closing `"` on its line.
        case unterminatedQuote
        /// A `/*` with no `*/`.
        case unterminatedComment
        /// A character that cannot start a token.
        case invalidCharacter(Unicode.Scalar)
        /// More than the parser accepts (bytes, types, fields, roles, name length).
        case limitExceeded(String)
        /// A byte that does not begin a well-formed UTF-8 character (the file is not UTF-8 text).
        case invalidUTF8(UInt8)
    }

    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int
    public var kind: Kind

    public init(line: Int, column: Int, kind: Kind) {
        self.line = line
        self.column = column
        self.kind = kind
    }

    /// The message, one line, without the position.
    public var message: String {
        switch kind {
        case .syntax(let text):
            return text
        case .unknownType(let name, let suggestion):
            return "unknown field type \(SchemaError.quoted(name))" + (suggestion.map { "; did you mean \($0)?" } ?? "")
        case .duplicateField(let type, let field):
            return "duplicate field \(SchemaError.quoted(field)) in record type \(SchemaError.quoted(type))"
        case .duplicateRecordType(let name):
            return "duplicate record type \(SchemaError.quoted(name))"
        case .duplicateRole(let name):
            return "duplicate role \(SchemaError.quoted(name))"
        case .attributeNotAllowed(let attribute, let field, let type):
            return "\(attribute.rawValue) is not allowed on field \(SchemaError.quoted(field)) of type \(type)"
                + (attribute == .searchable ? " (only STRING and LIST<STRING> are SEARCHABLE)" : "")
        case .unknownRole(let name, let suggestion):
            return "unknown role \(SchemaError.quoted(name)) (create it with CREATE ROLE, or use \"_creator\", \"_icloud\" or \"_world\")"
                + (suggestion.map { "; did you mean \(SchemaError.quoted($0))?" } ?? "")
        case .systemFieldType(let field, let expected, let found):
            return "system field \(SchemaError.quoted(field)) has type \(expected), not \(found)"
        case .reservedName(let name):
            return "\(SchemaError.quoted(name)): names starting with '_' are reserved for the system fields"
        case .nestedList:
            return "lists cannot be nested: LIST takes STRING, INT64, … but not LIST"
        case .unterminatedQuote:
            return "unterminated quoted name: no closing '\"' on this line"
        case .unterminatedComment:
            return "unterminated comment: '/*' without '*/'"
        case .invalidCharacter(let scalar):
            let hint = scalar == "\u{201C}" || scalar == "\u{201D}" ? " (use straight double quotes)" : ""
            return "unexpected character \(SchemaError.display(scalar))\(hint)"
        case .limitExceeded(let what):
            return what
        case .invalidUTF8(let byte):
            let hex = String(byte, radix: 16, uppercase: true)
            return "not UTF-8 text: byte 0x\(hex.count < 2 ? "0" + hex : hex) does not begin a valid UTF-8 character"
        }
    }

    /// `FILE:LINE:COLUMN: message`.
    public func rendered(file: String) -> String { "\(file):\(line):\(column): \(message)" }

    /// `LINE:COLUMN: message`.
    public var description: String { "\(line):\(column): \(message)" }

    /// A name in single quotes, with control and non-printing characters escaped so the message
    /// stays on one line; long names are shortened.
    static func quoted(_ name: String) -> String {
        var out = ""
        var count = 0
        for scalar in name.unicodeScalars {
            if count == 64 {
                out += "…"
                break
            }
            count += 1
            out += printable(scalar) ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
        return "'\(out)'"
    }

    static func printable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
        default: true
        }
    }

    static func display(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return printable(scalar) && scalar != " " ? "'\(scalar)' (\(code))" : code
    }
}
