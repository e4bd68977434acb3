/// The runnable parts of README.md: every ```sh block, line by line, with the claims the README
/// makes about each line, and every ```text block that is a REPL transcript.
///
/// Claims live in the README itself, invisibly, in an HTML comment right after a block:
///
///     <!-- readme-test
///     `phone fetch-changes`: out "Already up to date."
///     `--field title=Stale`: exit 4
///     -->
///
/// Each claim names a line of the block by a piece of its command (or its end, with a trailing `$`;
/// claims are matched in order, so the same command twice takes two claims) and says `exit N` (or `exit N|M`), `out "TEXT"` /
/// `err "TEXT"` (stdout / stderr contains TEXT), `out~ "REGEX"` (stdout matches) or `ndjson`
/// (every stdout line is a JSON document). A line without a claim must exit 0. A claims line
/// that is only `alone` marks a block the README says runs pasted alone into a fresh shell; the
/// test then also runs it that way.
struct ReadmeDocument {
    var blocks: [ReadmeBlock]

    init(markdown: String) throws(ReadmeFormatError) {
        blocks = []
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var heading = "(top)"
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("#") { heading = line.drop { $0 == "#" || $0 == " " }.description }
            guard line.hasPrefix("```"), line.count > 3 else { index += 1; continue }
            let language = String(line.dropFirst(3))
            var body: [String] = []
            index += 1
            while index < lines.count, lines[index] != "```" { body.append(lines[index]); index += 1 }
            guard index < lines.count else { throw .unclosedBlock(heading) }
            index += 1
            // The claims comment, if any: after blank lines at most.
            var claims: [String] = []
            var look = index
            while look < lines.count, lines[look].trimmingSpaces.isEmpty { look += 1 }
            if look < lines.count, lines[look].hasPrefix("<!-- readme-test") {
                look += 1
                while look < lines.count, lines[look] != "-->" {
                    if !lines[look].trimmingSpaces.isEmpty { claims.append(lines[look]) }
                    look += 1
                }
                guard look < lines.count else { throw .unclosedBlock(heading + " (claims)") }
                index = look + 1
            }
            let number = blocks.count + 1
            if language == "sh" {
                blocks.append(try ReadmeBlock(shell: body, number: number, heading: heading, claims: claims))
            } else if let transcript = ReplTranscript(body) {
                blocks.append(ReadmeBlock(number: number, heading: heading, lines: [], transcript: transcript))
            } else if !claims.isEmpty {
                throw .claimsOnTextBlock(heading)
            }
        }
    }
}

/// A fenced block the test runs.
struct ReadmeBlock {
    let number: Int
    let heading: String
    var lines: [ReadmeLine]
    var transcript: ReplTranscript?
    /// The README says this block runs pasted alone into a fresh shell (claim `alone`).
    var runsAlone = false

    init(number: Int, heading: String, lines: [ReadmeLine], transcript: ReplTranscript?) {
        self.number = number
        self.heading = heading
        self.lines = lines
        self.transcript = transcript
    }

    /// A shell block: continuation lines joined, comment-only and blank lines dropped, claims attached.
    init(shell body: [String], number: Int, heading: String, claims: [String]) throws(ReadmeFormatError) {
        self.number = number
        self.heading = heading
        transcript = nil
        lines = []
        var pending: [String] = []
        for raw in body {
            pending.append(raw)
            if raw.hasSuffix("\\") { continue }
            let text = pending.joined(separator: "\n")
            pending = []
            let command = ReadmeLine.stripComment(text).trimmingSpaces
            if command.isEmpty { continue }
            lines.append(ReadmeLine(number: lines.count + 1, text: text, command: command))
        }
        var next = 0
        for claim in claims {
            if claim.trimmingSpaces == "alone" {
                runsAlone = true
                continue
            }
            let (key, expectation) = try LineExpectation.parse(claim, heading: heading)
            guard let found = lines[next...].firstIndex(where: { $0.matches(key) }) else {
                throw .claimMatchesNoLine(heading, claim)
            }
            lines[found].expectation = expectation
            next = found + 1
        }
    }
}

/// One command line of a shell block.
struct ReadmeLine {
    /// 1-based among the block's command lines.
    let number: Int
    /// As in the README (continuation lines joined with their newlines).
    let text: String
    /// Without its trailing `# comment`.
    let command: String
    var expectation = LineExpectation()

    /// A claim's key names this line: a piece of its command, or its end when the key ends with `$`.
    func matches(_ key: String) -> Bool {
        key.hasSuffix("$") ? command.hasSuffix(key.dropLast()) : command.contains(key)
    }

    /// Started in the background (`… &`).
    var isBackground: Bool { command.hasSuffix("&") && !command.hasSuffix("&&") }

    /// The text before a `#` that starts a shell comment (outside quotes, after a blank).
    static func stripComment(_ text: String) -> String {
        var single = false, double = false
        var previous: Character = " "
        var result = ""
        for c in text {
            if c == "'" && !double { single.toggle() }
            if c == "\"" && !single { double.toggle() }
            if c == "#" && !single && !double && (previous == " " || previous == "\n") { break }
            result.append(c)
            previous = c
        }
        return result
    }
}

/// What a line must do.
struct LineExpectation {
    var exitCodes: [Int32] = [0]
    var stdout: [String] = []
    var stdoutPatterns: [String] = []
    var stderr: [String] = []
    var ndjson = false

    /// "`KEY`: exit 4 out "TEXT" …" -> (KEY, expectation).
    static func parse(_ claim: String, heading: String) throws(ReadmeFormatError) -> (String, LineExpectation) {
        var rest = Substring(claim.trimmingSpaces)
        guard rest.first == "`", let close = rest.dropFirst().firstIndex(of: "`") else { throw .badClaim(heading, claim) }
        let key = String(rest[rest.index(after: rest.startIndex)..<close])
        rest = rest[rest.index(after: close)...]
        guard rest.first == ":" else { throw .badClaim(heading, claim) }
        rest = rest.dropFirst()
        var expectation = LineExpectation()
        while true {
            rest = rest.drop { $0 == " " || $0 == "," }
            if rest.isEmpty { break }
            let word = String(rest.prefix { $0 != " " && $0 != "," })
            rest = rest.dropFirst(word.count)
            switch word {
            case "exit":
                rest = rest.drop { $0 == " " }
                let codes = rest.prefix { $0 != " " && $0 != "," }
                rest = rest.dropFirst(codes.count)
                let parsed = codes.split(separator: "|").compactMap { Int32($0) }
                guard !parsed.isEmpty else { throw .badClaim(heading, claim) }
                expectation.exitCodes = parsed
            case "ndjson":
                expectation.ndjson = true
            case "out", "err", "out~":
                rest = rest.drop { $0 == " " }
                guard rest.first == "\"" else { throw .badClaim(heading, claim) }
                rest = rest.dropFirst()
                var text = ""
                while let c = rest.first, c != "\"" {
                    if c == "\\", rest.dropFirst().first == "\"" { text.append("\""); rest = rest.dropFirst(2); continue }
                    text.append(c)
                    rest = rest.dropFirst()
                }
                guard rest.first == "\"" else { throw .badClaim(heading, claim) }
                rest = rest.dropFirst()
                switch word {
                case "out": expectation.stdout.append(text)
                case "err": expectation.stderr.append(text)
                default: expectation.stdoutPatterns.append(text)
                }
            default:
                throw .badClaim(heading, claim)
            }
        }
        return (key, expectation)
    }
}

/// A ```text block that shows a REPL session: `account@device> input` lines and the output
/// under them.
struct ReplTranscript {
    let account: String
    let device: String
    let inputs: [String]
    let outputs: [String]

    init?(_ body: [String]) {
        var inputs: [String] = [], outputs: [String] = []
        var context: (String, String)?
        for line in body where !line.trimmingSpaces.isEmpty {
            let head = line.prefix { $0 != " " }
            if head.count > 2, head.hasSuffix(">"), let at = head.firstIndex(of: "@") {
                if context == nil {
                    context = (String(head[..<at]), String(head[head.index(after: at)..<head.index(before: head.endIndex)]))
                }
                inputs.append(String(line.dropFirst(head.count + 1)))
            } else if context != nil {
                outputs.append(line)
            } else {
                return nil
            }
        }
        guard let context else { return nil }
        (account, device) = context
        self.inputs = inputs
        self.outputs = outputs
    }
}

/// README.md does not follow the claims convention.
enum ReadmeFormatError: Error, CustomStringConvertible {
    case unclosedBlock(String)
    case badClaim(String, String)
    case claimMatchesNoLine(String, String)
    case claimsOnTextBlock(String)

    var description: String {
        switch self {
        case .unclosedBlock(let heading): "README: a block under '\(heading)' is never closed"
        case .badClaim(let heading, let claim): "README: claim under '\(heading)' does not parse: \(claim)"
        case .claimMatchesNoLine(let heading, let claim):
            "README: claim under '\(heading)' names no later line of its block: \(claim)"
        case .claimsOnTextBlock(let heading): "README: claims under '\(heading)' follow a block that does not run"
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing blanks.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
