import CloudSyncCore

/// What a command prints on stdout with `--json`: documented in the JSON OUTPUT section of its
/// family's man page and in `help COMMAND --json` (`jsonOutput`), and checked against the real
/// commands by `JSONOutputTests`. Only the top level is described here; nested dictionaries
/// (records, zones, tokens) are named in the key's help.
public struct JSONOutput: Sendable, Hashable {
    /// How the output is laid out.
    public enum Form: String, Sendable, Hashable {
        /// One JSON object.
        case document
        /// NDJSON: one JSON object per line, as things happen.
        case lines
        /// One JSON array of objects.
        case array
        /// Nothing on stdout: the exit status (and stderr) tell.
        case nothing
    }

    /// A top-level key.
    public struct Key: Sendable, Hashable {
        /// The key.
        public var name: String
        /// What its value is.
        public var help: String
        /// Whether it may be absent (in some lines, or for some arguments).
        public var optional: Bool
    }

    /// The layout.
    public var form: Form
    /// One or two sentences on when and what is printed.
    public var summary: String
    /// The top-level keys, in the order they are printed.
    public var keys: [Key]

    /// A description; each key is `("name", "help")`, with a leading `?` on an optional name.
    public init(_ form: Form, _ summary: String, _ keys: [(String, String)] = []) {
        self.form = form
        self.summary = summary
        self.keys = keys.map { name, help in
            name.hasPrefix("?") ? Key(name: String(name.dropFirst()), help: help, optional: true)
                                : Key(name: name, help: help, optional: false)
        }
    }

    /// One JSON object with these keys.
    public static func document(_ summary: String, _ keys: [(String, String)]) -> JSONOutput {
        JSONOutput(.document, summary, keys)
    }

    /// NDJSON lines whose keys are among these (`?` for keys only some lines have).
    public static func lines(_ summary: String, _ keys: [(String, String)]) -> JSONOutput {
        JSONOutput(.lines, summary, keys)
    }

    /// A JSON array of objects with these keys.
    public static func array(_ summary: String, _ keys: [(String, String)]) -> JSONOutput {
        JSONOutput(.array, summary, keys)
    }

    /// Nothing on stdout with `--json`.
    public static func nothing(_ summary: String = "Prints nothing on stdout; the exit status tells.") -> JSONOutput {
        JSONOutput(.nothing, summary)
    }

    /// The form's name in the man page.
    public var formDescription: String {
        switch form {
        case .document: "One JSON object."
        case .lines: "NDJSON: one JSON object per line."
        case .array: "One JSON array of objects."
        case .nothing: ""
        }
    }

    /// The description as JSON, for `help --json`: `{form, summary, keys: [{name, help, optional}]}`.
    public var jsonValue: JSONValue {
        .object([("form", .string(form.rawValue)), ("summary", .string(summary)),
                 ("keys", .array(keys.map {
                     .object([("name", .string($0.name)), ("help", .string($0.help)), ("optional", .bool($0.optional))])
                 }))])
    }
}
