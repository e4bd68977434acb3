/// The user's config file, `$XDG_CONFIG_HOME/cloudsync/config` (or `$CLOUDSYNC_CONFIG`):
/// `key = value` lines, `#` or `;` comments, keys `account`, `device`, `container`, `cloud`, `token`,
/// `home`. Mistakes in its lines become warnings naming `file:line`, never failures; a path that
/// is not a regular file (a FIFO, a device such as `/dev/zero`, a folder) or is larger than
/// `maximumSize` is refused (`refusal`), since reading it could hang or never end.
public struct ConfigFile: Sendable, Hashable {
    /// One setting found in the file.
    public struct Entry: Sendable, Hashable {
        /// The value, unquoted.
        public var value: String
        /// The 1-based line it came from.
        public var line: Int
    }

    /// The keys the file may set.
    public static let keys = SettingSpec.all.compactMap(\.configKey)

    /// The file's path.
    public var path: String
    /// The valid settings by key; the last line wins when a key repeats.
    public var entries: [String: Entry] = [:]
    /// One line per problem, `path:line: what is wrong`.
    public var warnings: [String] = []
    /// Why the file was not read at all and must not be used (the caller stops with a usage
    /// error): it is not a regular file, or is too large. Nil otherwise.
    public var refusal: String?

    /// The largest config file read (1 MiB).
    public static let maximumSize = 1 << 20

    /// The value of `key`, if the file sets it.
    public subscript(key: String) -> String? { entries[key]?.value }

    /// Reads and parses the file at `path`. A missing file is an empty config without warnings.
    public static func load(path: String) -> ConfigFile {
        switch FileSystem.readFile(path, limit: maximumSize) {
        case .missing:
            return ConfigFile(path: path)
        case .notRegular(let kind):
            var config = ConfigFile(path: path)
            config.refusal = "the config file \(path) is \(kind), not a regular file"
            return config
        case .tooLarge(let limit):
            var config = ConfigFile(path: path)
            config.refusal = "the config file \(path) is larger than \(limit >> 20) MiB"
            return config
        case .failed(let reason):
            var config = ConfigFile(path: path)
            config.warnings.append("\(path): cannot read the config file: \(reason)")
            return config
        case .contents(let bytes):
            return parse(String(decoding: bytes, as: UTF8.self), path: path)
        }
    }

    /// Parses config text; `path` is used in warnings.
    public static func parse(_ text: String, path: String) -> ConfigFile {
        var config = ConfigFile(path: path)
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        for (index, rawLine) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = trim(rawLine)
            if line.isEmpty || line.first == "#" || line.first == ";" { continue }
            guard let equals = line.firstIndex(of: "=") else {
                config.warnings.append("\(path):\(number): ignoring a line that is not 'key = value'")
                continue
            }
            let key = trim(line[..<equals]).lowercased()
            guard !key.isEmpty else {
                config.warnings.append("\(path):\(number): ignoring a line without a key")
                continue
            }
            guard keys.contains(key) else {
                var message = "\(path):\(number): ignoring unknown key '\(key)'"
                if let hint = Suggestions.didYouMean(key, among: keys) {
                    message += " (" + hint.prefix(1).lowercased() + hint.dropFirst() + ")"
                }
                config.warnings.append(message)
                continue
            }
            guard let value = parseValue(line[line.index(after: equals)...]) else {
                config.warnings.append("\(path):\(number): ignoring '\(key)': unterminated quoted value")
                continue
            }
            guard !value.isEmpty else {
                config.warnings.append("\(path):\(number): ignoring '\(key)': empty value")
                continue
            }
            config.entries[key] = Entry(value: value, line: number)
        }
        return config
    }

    /// A value is either `"quoted"` (with `\"` and `\\` escapes) or bare, with an optional
    /// trailing comment after whitespace (`value  # note`). Nil for an unterminated quote.
    private static func parseValue(_ raw: Substring) -> String? {
        let text = trim(raw)
        if text.first == "\"" {
            var value = ""
            var escaped = false
            for c in text.dropFirst() {
                if escaped {
                    value.append(c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    return value
                } else {
                    value.append(c)
                }
            }
            return nil
        }
        var value = text
        var previous: Character = " "
        for index in text.indices {
            let c = text[index]
            if (c == "#" || c == ";") && (previous == " " || previous == "\t") {
                value = text[..<index]
                break
            }
            previous = c
        }
        return String(trim(value))
    }

    private static func trim(_ text: Substring) -> Substring {
        var result = text
        while let c = result.first, c == " " || c == "\t" || c == "\r" { result = result.dropFirst() }
        while let c = result.last, c == " " || c == "\t" || c == "\r" { result = result.dropLast() }
        return result
    }
}
