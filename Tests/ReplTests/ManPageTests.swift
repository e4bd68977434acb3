import Glibc
import TestSupport
import Testing

/// The man pages: lint-clean, complete, and saying what `cloudsync help` says.
@Suite struct ManPageTests {
    /// Generates the pages of the built binary's table into a fresh folder.
    static func generate(_ folder: TemporaryDirectory) -> [String] {
        let result = BinaryRunner(home: folder.path).run(["__generate-docs", "--output", folder.path])
        #expect(result.status == 0, "\(result.stderr)")
        return TemporaryDirectory.directoryEntries(folder.path + "/man").sorted()
    }

    /// Every help page: the command words and the help text, walking the COMMANDS and
    /// SUBCOMMANDS sections of the help output itself.
    static func helpPages(_ runner: BinaryRunner, path: [String] = []) -> [([String], String)] {
        let result = runner.run(["help"] + path)
        #expect(result.status == 0, "help \(path): \(result.stderr)")
        var pages = [(path, result.stdout)]
        guard path.first != "help" else { return pages }
        for name in HelpText(result.stdout).listedCommands() {
            pages += helpPages(runner, path: path + [name])
        }
        return pages
    }

    @Test func everyPageIsLintClean() throws {
        let folder = TemporaryDirectory("man-lint")
        let pages = Self.generate(folder)
        #expect(pages.count >= 8)
        for page in pages {
            let path = folder.path + "/man/" + page
            if let lint = Tool.mandoc.run(["-T", "lint", path]) {
                #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "mandoc -T lint \(page):\n\(lint.stdout)\(lint.stderr)")
            }
            if let groff = Tool.groff.run(["-ww", "-man", "-z", path]) {
                #expect(groff.status == 0 && groff.stderr.isEmpty, "groff -ww \(page):\n\(groff.stderr)")
            }
        }
    }

    @Test func onePagePerCommandWithTheStandardSections() throws {
        let folder = TemporaryDirectory("man-sections")
        let pages = Self.generate(folder)
        let runner = BinaryRunner(home: folder.path)
        let commands = HelpText(runner.run(["help"]).stdout).listedCommands()
        #expect(commands.contains("zone") && commands.contains("repl") && !commands.contains("__complete"))
        #expect(pages == (["cloudsync.1"] + commands.map { "cloudsync-\($0).1" }).sorted())
        for page in pages {
            let source = String(decoding: TemporaryDirectory.readBytes(folder.path + "/man/" + page) ?? [], as: UTF8.self)
            for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXAMPLES", "\"EXIT STATUS\"", "ENVIRONMENT",
                            "FILES", "\"SEE ALSO\""] {
                #expect(source.contains("\n.SH \(section)\n"), "\(page) lacks \(section)")
            }
            #expect(source.contains(".TH \"CLOUDSYNC"))
        }
    }

    @Test func helpShowsTheSameContentAsTheManPages() throws {
        let folder = TemporaryDirectory("man-help")
        _ = Self.generate(folder)
        let runner = BinaryRunner(home: folder.path)
        var checked = 0
        for (path, help) in Self.helpPages(runner) {
            let page = path.isEmpty ? "cloudsync.1" : "cloudsync-\(path[0]).1"
            let source = String(decoding: TemporaryDirectory.readBytes(folder.path + "/man/" + page) ?? [], as: UTF8.self)
            let manual = ManText.plain(source)
            let text = HelpText(help)
            let isGroup = text.section("SUBCOMMANDS") != nil
            for title in ["USAGE", "DESCRIPTION", "ARGUMENTS", "OPTIONS", "GLOBAL OPTIONS", "EXAMPLES", "EXIT STATUS",
                          "ENVIRONMENT", "FILES"] {
                // A group's usage is '<subcommand> [<args>]'; its page lists each subcommand's instead.
                if title == "USAGE" && isGroup { continue }
                guard let body = text.section(title) else { continue }
                let words = ManText.normalized(body)
                #expect(manual.contains(words), "\(page): the \(title) of 'cloudsync help \(path.joined(separator: " "))' is not in the man page:\n\(words)")
                checked += 1
            }
            for (name, abstract) in text.listedCommandsWithAbstracts() {
                #expect(manual.contains(ManText.normalized(abstract)), "\(page): abstract of \(name)")
            }
        }
        #expect(checked > 40)
    }

    @Test func helpOfTheRootListsExitStatusEnvironmentAndFiles() throws {
        let folder = TemporaryDirectory("man-root")
        let help = HelpText(BinaryRunner(home: folder.path).run(["help", "-a"]).stdout)
        #expect(help.section("EXIT STATUS")?.contains("77") == true)
        #expect(help.section("EXIT STATUS")?.contains("74") == true)
        #expect(help.section("ENVIRONMENT")?.contains("CLOUDSYNC_HISTORY") == true)
        #expect(help.section("FILES")?.contains("$XDG_STATE_HOME/cloudsync/history") == true)
    }
}

/// The sections of a help page.
struct HelpText {
    let text: String

    init(_ text: String) { self.text = text }

    /// The lines under an all-caps title, up to the next blank-line-separated title or footer.
    func section(_ title: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == title }) else { return nil }
        var body: [Substring] = []
        for line in lines[(start + 1)...] {
            if let first = line.first, first != " " { break }
            body.append(line)
        }
        return body.joined(separator: "\n")
    }

    /// The names in the COMMANDS or SUBCOMMANDS section.
    func listedCommands() -> [String] { listedCommandsWithAbstracts().map(\.0) }

    func listedCommandsWithAbstracts() -> [(String, String)] {
        guard let body = section("COMMANDS") ?? section("SUBCOMMANDS") else { return [] }
        var rows: [(String, String)] = []
        for line in body.split(separator: "\n") {
            if line.hasPrefix("  ") && !line.hasPrefix("   ") {
                let words = line.split(separator: " ", maxSplits: 1)
                rows.append((String(words[0]), words.count > 1 ? String(words[1]) : ""))
            } else if var last = rows.popLast() {
                last.1 += " " + line
                rows.append(last)
            }
        }
        return rows
    }
}

/// The words of a man page source, without markup, for comparing with help text.
enum ManText {
    static func plain(_ source: String) -> String {
        var words: [String] = []
        for line in source.split(separator: "\n") {
            if line.hasPrefix(".\\\"") || line == ".nf" || line == ".fi" || line == ".RE" || line == ".PP" || line == ".TP"
                || line == ".YS" || line.hasPrefix(".TH") || line.hasPrefix(".RS") || line == ".ad l" || line == ".nh" {
                continue
            }
            var text = String(line)
            for macro in [".SH ", ".SS ", ".SY ", ".BR "] where text.hasPrefix(macro) {
                text = String(text.dropFirst(macro.count))
            }
            text = text.replacingOccurrences("\\fB", "").replacingOccurrences("\\fI", "")
                .replacingOccurrences("\\fR", "").replacingOccurrences("\\%", "").replacingOccurrences("\\&", "")
                .replacingOccurrences("\\c", "").replacingOccurrences("\\-", "-").replacingOccurrences("\\ ", " ")
                .replacingOccurrences("\\(dq", "\"").replacingOccurrences("\\e", "\\")
            text = decodingUnicodeEscapes(text)
            if text.hasPrefix("\"") && text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
            words.append(text)
        }
        return normalized(words.joined(separator: " "))
    }

    /// `\[u2026]` as the character it names.
    static func decodingUnicodeEscapes(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "\\[u") {
            result += rest[..<start.lowerBound]
            rest = rest[start.upperBound...]
            guard let close = rest.firstIndex(of: "]"), let value = UInt32(rest[..<close], radix: 16),
                  let scalar = Unicode.Scalar(value) else { result += "\\[u"; continue }
            result.unicodeScalars.append(scalar)
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Words separated by single blanks.
    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension TemporaryDirectory {
    /// The names in a folder.
    static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
