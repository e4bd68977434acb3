import CloudSyncCLI
import CloudSyncCore
import Testing

/// The one escaping function of text output, `TerminalText`'s split of layout from data, and
/// `Output` applying both (issue 17, item 13).
@Suite struct TerminalEscapingTests {
    static let hostile = "\u{1B}]0;PWNED\u{07}\u{1B}[2J"

    /// True if `text` holds a character a terminal acts on (other than newline, and tab when
    /// `tabs` allows it).
    static func hasRawControl(_ text: String, tabs: Bool = false) -> Bool {
        text.unicodeScalars.contains { scalar in
            if scalar == "\n" || (tabs && scalar == "\t") { return false }
            return TerminalEscaping.needsEscaping(scalar)
        }
    }

    @Test func namedAndHexEscapes() {
        #expect(TerminalEscaping.escapeValue(Self.hostile) == #"\e]0;PWNED\a\e[2J"#)
        #expect(TerminalEscaping.escapeValue("a\u{0}b\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\u{7F}")
                == #"a\x00b\x01\b\t\n\v\f\r\x1f\x7f"#)
        // C1 controls: U+009B is a one-character CSI on some terminals.
        #expect(TerminalEscaping.escapeValue("\u{80}x\u{9B}2J\u{9F}") == #"\u0080x\u009b2J\u009f"#)
        // Bidi overrides and isolates (Trojan Source), line and paragraph separators.
        #expect(TerminalEscaping.escapeValue("a\u{202A}\u{202E}\u{2066}\u{2069}\u{2028}\u{2029}b")
                == #"a\u202a\u202e\u2066\u2069\u2028\u2029b"#)
        // Bidi marks (issue 25): the same list as JSON output's, `ControlCharacters`.
        #expect(TerminalEscaping.escapeValue("\u{200E}a\u{200F}\u{61C}") == #"\u200ea\u200f\u061c"#)
    }

    @Test func printableTextIsUnchanged() {
        for text in ["", "plain ASCII ~!@#$%^&*()", "naïve café 日本語 🙂", "back\\slash \\e \\n", "\u{A0}\u{200B}\u{FEFF}"] {
            #expect(TerminalEscaping.escapeValue(text) == text)
            #expect(TerminalEscaping.escapeText(text) == text)
        }
    }

    @Test func textKeepsItsLayoutValuesDoNot() {
        #expect(TerminalEscaping.escapeText("a\tb\nc\r\u{1B}") == "a\tb\nc\\r\\e")
        #expect(TerminalEscaping.escapeValue("a\tb\nc") == #"a\tb\nc"#)
    }

    @Test func escapingIsIdempotentAndLeavesNothingRaw() {
        var samples = [Self.hostile, "x\r\ny", "\u{9B}31m", "\u{202E}evil"]
        samples.append(String(String.UnicodeScalarView((0...0x2100).compactMap(Unicode.Scalar.init))))
        for sample in samples {
            let once = TerminalEscaping.escapeValue(sample)
            #expect(TerminalEscaping.escapeValue(once) == once)
            #expect(!Self.hasRawControl(once))
            #expect(!once.contains("\n") && !once.contains("\t"))
            let text = TerminalEscaping.escapeText(sample)
            #expect(!Self.hasRawControl(text, tabs: true))
        }
    }

    @Test func interpolatedValuesAreEscapedLiteralLayoutIsKept() {
        let name = "n\n2\t\(Self.hostile)"
        let text: TerminalText = "deleted \(name)\tok\nnext \(42)"
        #expect(text.plain == #"deleted n\n2\t\e]0;PWNED\a\e[2J"# + "\tok\nnext 42")
        #expect(TerminalText.text("a\nb\u{1B}").plain == "a\nb\\e")
        #expect(TerminalText.value("a\nb").plain == #"a\nb"#)
        let nested: TerminalText = "[\(TerminalText.text("x\ny"))] [\("x\ny")]"
        #expect(nested.plain == "[x\ny] [x\\ny]")
        #expect(TerminalText(lines: ["a \("1\n")", "b"]).plain == "a 1\\n\nb")
    }

    @Test func stylesAreThePrograms() {
        let text: TerminalText = "\("bold\u{1B}", style: .bold) rest"
        #expect(text.rendered(color: true) == "\u{1B}[1mbold\\e\u{1B}[0m rest")
        #expect(text.rendered(color: false) == "bold\\e rest")
    }

    @Test func outputEscapesEveryTextPathButNotJSON() {
        let out = CaptureFile()
        let err = CaptureFile()
        let output = Output(stdout: out.fd, stderr: err.fd, color: true, isTTY: false)
        let evil = Self.hostile + "\r\n"
        output.line("line \(evil)")
        output.write(.text("text \(evil)"))
        output.table(["NAME"], [[evil]])
        output.info("info \(evil)")
        output.warning("warning \(evil)")
        output.error("error \(evil)")
        output.writeError(TerminalText.value(evil).appending("\n"))
        output.flush()
        let stdout = out.contents(), stderr = err.contents()
        #expect(!Self.hasRawControl(stdout.replacing("\u{1B}[1m", with: "").replacing("\u{1B}[0m", with: "")))
        #expect(!Self.hasRawControl(stderr))
        #expect(stdout.contains(#"line \e]0;PWNED\a\e[2J\r\n"#))
        #expect(stdout.contains("text \\e]0;PWNED\\a\\e[2J\\r\n"), "layout keeps its newline")
        #expect(stdout.contains(#"\e]0;PWNED\a\e[2J\r\n"# + "\n"))
        #expect(stderr.split(separator: "\n", omittingEmptySubsequences: false).count == 5, "one line each, plus the end: \(stderr)")

        let jsonFile = CaptureFile()
        let json = Output(stdout: jsonFile.fd, stderr: jsonFile.fd, json: true, isTTY: false)
        json.json(.string(evil))
        json.flush()
        #expect(jsonFile.contents() == "\"\\u001b]0;PWNED\\u0007\\u001b[2J\\r\\n\"\n")
    }

    @Test func verbatimIsTheOnlyWayToSendControlSequences() {
        let out = CaptureFile()
        let err = CaptureFile()
        let output = Output(stdout: out.fd, stderr: err.fd, isTTY: false)
        output.writeVerbatim("\u{1B}[7m")
        output.writeErrorVerbatim("\r\u{1B}[2K")
        output.write("\u{1B}[7m")
        output.flush()
        #expect(out.contents() == "\u{1B}[7m\\e[7m")
        #expect(err.contents() == "\r\u{1B}[2K")
    }

    @Test func tableColumnsAlignOnTheEscapedCells() {
        let out = CaptureFile()
        let output = Output(stdout: out.fd, stderr: out.fd, isTTY: false)
        output.table(["A", "B"], [["\u{1B}x", "1"], ["long", "2"]])
        output.flush()
        #expect(out.contents() == "A     B\n\\ex   1\nlong  2\n")
    }
}
