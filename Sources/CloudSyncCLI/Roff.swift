/// Escaping for man(7) source, so that any text of the command table renders as typed.
enum Roff {
    /// `text` as one line of filled text: backslashes and hyphens escaped (so `--zone` copies
    /// as ASCII from the rendered page), non-ASCII characters as `\[uXXXX]`, and a leading `.`
    /// or `'` protected with `\&` so it is not read as a request.
    static func text(_ text: String) -> String {
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
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// `text` as a double-quoted macro argument.
    static func quoted(_ text: String) -> String {
        "\"" + Roff.text(text).replacingAll("\"", with: "\\(dq") + "\""
    }

    /// `text` in bold.
    static func bold(_ text: String) -> String { "\\fB" + Roff.text(text) + "\\fR" }

    /// `text` in italics.
    static func italic(_ text: String) -> String { "\\fI" + Roff.text(text) + "\\fR" }

    /// A usage form (`cloudsync zone create [--atomic] <name>...`) with the command words and
    /// option names in bold and the `<placeholders>` in italics. `command` is the part that
    /// names the command.
    static func usage(_ line: String, command: String) -> String {
        var rest = Substring(line)
        var result = ""
        if rest.hasPrefix(command) {
            result = bold(command)
            rest = rest.dropFirst(command.count)
        }
        var previous: Character = " "
        while let character = rest.first {
            if character == "<", let close = rest.firstIndex(of: ">") {
                result += italic(String(rest[...close]))
                previous = ">"
                rest = rest[rest.index(after: close)...]
            } else if character == "-" && (previous == " " || previous == "[" || previous == "|") {
                let word = rest.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
                result += bold(String(word))
                previous = word.last ?? "-"
                rest = rest.dropFirst(word.count)
            } else {
                result += text(String(character))
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
