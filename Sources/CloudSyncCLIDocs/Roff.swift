import CloudSyncCLI

/// Escaping for man(7) source, so that any text of the command table renders as typed.
enum Roff {
    /// Words holding one of these (paths, variables, options, identifiers) are never
    /// hyphenated (`\%`), so they read and copy as typed.
    private static let identifierCharacters: Set<Character> = ["$", "/", "_", "-", "@", ".", ":", "=", "<", "~"]

    /// `text` as one line of filled text: backslashes and hyphens escaped (so `--zone` copies
    /// as ASCII from the rendered page), non-ASCII characters as `\[uXXXX]`, identifiers kept
    /// whole, and a leading `.` or `'` protected with `\&` so it is not read as a request.
    static func text(_ text: String) -> String {
        var words: [String] = []
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let escaped = characters(String(word))
            words.append(word.dropLast().contains(where: identifierCharacters.contains) ? "\\%" + escaped : escaped)
        }
        let result = words.joined(separator: " ")
        if result.hasPrefix(".") || result.hasPrefix("'") { return "\\&" + result }
        return result
    }

    /// The characters of `text` escaped.
    private static func characters(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "\n", "\t", "\r": result += " "
            default:
                if scalar.isASCII {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "\\[u" + hex(scalar.value) + "]"
                }
            }
        }
        return result
    }

    /// `text` as a double-quoted macro argument.
    static func quoted(_ text: String) -> String {
        "\"" + characters(text).replacingAll("\"", with: "\\(dq") + "\""
    }

    /// `text` in bold.
    static func bold(_ text: String) -> String { "\\fB" + Roff.text(text) + "\\fR" }

    /// `text` in italics.
    static func italic(_ text: String) -> String { "\\fI" + Roff.text(text) + "\\fR" }

    /// A usage form or word (`[--zone <ZONE>]`) with the option names in bold and the
    /// `<placeholders>` in italics, never hyphenated. `command`, if the text starts with it,
    /// is set in bold.
    static func usage(_ line: String, command: String) -> String {
        var rest = Substring(line)
        var result = "\\%"
        if !command.isEmpty && rest.hasPrefix(command) {
            result += "\\fB" + characters(command) + "\\fR"
            rest = rest.dropFirst(command.count)
        }
        var previous: Character = " "
        while let character = rest.first {
            if character == "<", let close = rest.firstIndex(of: ">") {
                result += "\\fI" + characters(String(rest[...close])) + "\\fR"
                previous = ">"
                rest = rest[rest.index(after: close)...]
            } else if character == "-" && (previous == " " || previous == "[" || previous == "|") {
                let word = rest.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
                result += "\\fB" + characters(String(word)) + "\\fR"
                previous = word.last ?? "-"
                rest = rest.dropFirst(word.count)
            } else {
                result += characters(String(character))
                previous = character
                rest = rest.dropFirst()
            }
        }
        return result
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
