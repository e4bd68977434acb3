/// Word wrapping for help text.
enum TextWrapper {
    /// Wraps `text` into lines of at most `width` characters, the first indented by
    /// `firstIndent` spaces and the rest by `indent`. Words longer than a line stay whole.
    static func wrap(_ text: String, width: Int, indent: Int, firstIndent: Int? = nil) -> [String] {
        var lines: [String] = []
        var line = String(repeating: " ", count: firstIndent ?? indent)
        var lineHasWord = false
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                lineHasWord = false
            }
            if lineHasWord { line += " " }
            line += word
            lineHasWord = true
        }
        if lineHasWord || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Wraps a discussion: paragraphs are separated by blank lines and wrapped; lines starting
    /// with a space are kept verbatim (indented), for code and tables.
    static func wrapParagraphs(_ text: String, width: Int, indent: Int) -> [String] {
        var output: [String] = []
        var paragraph: [Substring] = []
        let pad = String(repeating: " ", count: indent)
        func flush() {
            guard !paragraph.isEmpty else { return }
            output += wrap(paragraph.joined(separator: " "), width: width, indent: indent)
            paragraph = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                flush()
                if output.last != "" && !output.isEmpty { output.append("") }
            } else if line.first == " " || line.first == "\t" {
                flush()
                output.append(pad + line)
            } else {
                paragraph.append(line)
            }
        }
        flush()
        while output.last == "" { output.removeLast() }
        return output
    }

    /// A two-column list: labels indented by 2, descriptions starting at `column`, wrapped to
    /// `width`. A label too long for the column puts its description on the next line.
    static func twoColumns(_ rows: [(String, String)], column: Int, width: Int) -> [String] {
        var lines: [String] = []
        for (label, text) in rows {
            let head = "  " + label
            if text.isEmpty {
                lines.append(head)
            } else if head.count + 2 <= column {
                let wrapped = wrap(text, width: width, indent: column, firstIndent: column)
                var first = wrapped[0]
                first.replaceSubrange(first.startIndex..<first.index(first.startIndex, offsetBy: head.count),
                                      with: head)
                lines.append(first)
                lines += wrapped.dropFirst()
            } else {
                lines.append(head)
                lines += wrap(text, width: width, indent: column)
            }
        }
        return lines
    }
}
