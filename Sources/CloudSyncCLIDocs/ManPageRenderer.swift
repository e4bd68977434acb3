import CloudSyncCLI

/// Renders the man pages (man(7) source) from the command table: `cloudsync(1)` for the root
/// and `cloudsync-<command>(1)` for each visible top-level command, with the sections NAME,
/// SYNOPSIS, DESCRIPTION, COMMANDS (a family's subcommands with their arguments and options),
/// OPTIONS, EXAMPLES, EXIT STATUS, ENVIRONMENT, FILES and SEE ALSO.
///
/// The texts are the ones `cloudsync help` prints: the same abstracts, discussions, usage forms
/// (`UsageFormatter`), option and argument help (`HelpRenderer.optionHelp`) and examples, and
/// the program-wide lists of `ManualFacts`. Output is deterministic, so a test can check that
/// the committed pages match the table.
public struct ManPageRenderer: Sendable {
    /// The date in the page footers. It is part of the generated text, so it is a constant
    /// (bump it with a release) rather than today's date, which would make the pages drift.
    public static let manualDate = "2026-11-30"

    /// The version in the page footers (`cloudsync 0.1.0`).
    public var version: String
    /// The date in the page footers, `YYYY-MM-DD`.
    public var date: String

    /// A renderer for this version and date.
    public init(version: String, date: String = ManPageRenderer.manualDate) {
        self.version = version
        self.date = date
    }

    /// A rendered page: its file name (`cloudsync-zone.1`) and its man(7) source.
    public struct Page: Sendable, Hashable {
        /// The file name.
        public var fileName: String
        /// The man(7) source.
        public var text: String
    }

    /// Every page: `cloudsync.1`, then one per visible top-level command in table order.
    public func pages(root: CommandSpec) -> [Page] {
        let program = root.name
        var pages = [Page(fileName: program + ".1", text: rootPage(root))]
        for family in root.visibleSubcommands {
            pages.append(Page(fileName: program + "-" + family.name + ".1", text: familyPage(family, root: root)))
        }
        return pages
    }

    /// `cloudsync(1)`.
    public func rootPage(_ root: CommandSpec) -> String {
        let program = root.name
        var page = RoffPage()
        header(&page, title: program)
        page.section("NAME")
        page.text(Roff.text(program) + " \\- " + Roff.text(Self.sentenceFragment(root.abstract)))

        page.section("SYNOPSIS")
        synopsis(&page, root, path: [program])

        page.section("DESCRIPTION")
        discussion(&page, root.discussion)

        page.section("COMMANDS")
        for family in root.visibleSubcommands {
            page.macro("TP")
            page.line(Roff.bold(family.name))
            page.text(Roff.text(family.abstract))
            page.line("See " + Self.reference(program + "-" + family.name) + ".")
        }

        page.section("OPTIONS")
        optionList(&page, root.visibleOptions)

        examplesSection(&page, root.examples)
        factSections(&page)

        page.section("SEE ALSO")
        seeAlso(&page, root.visibleSubcommands.map { program + "-" + $0.name })
        return page.text
    }

    /// `cloudsync-<family>(1)`: the family and every command below it.
    public func familyPage(_ family: CommandSpec, root: CommandSpec) -> String {
        let program = root.name
        let name = program + "-" + family.name
        let path = [program, family.name]
        var page = RoffPage()
        header(&page, title: name)
        page.section("NAME")
        page.text(Roff.text(name) + " \\- " + Roff.text(Self.sentenceFragment(family.abstract)))

        let commands = Self.runnableCommands(family, path: path)
        page.section("SYNOPSIS")
        for (spec, commandPath) in commands {
            synopsis(&page, spec, path: commandPath)
        }

        page.section("DESCRIPTION")
        if family.discussion.isEmpty {
            page.text(Roff.text(family.abstract))
        } else {
            discussion(&page, family.discussion)
        }
        if family.run != nil && !family.arguments.isEmpty {
            page.paragraph()
            page.line(Roff.bold("Arguments:"))
            argumentList(&page, family.arguments)
        }

        let subcommands = Self.descendants(family, path: path)
        if !subcommands.isEmpty {
            page.section("COMMANDS")
            for (spec, commandPath) in subcommands {
                page.macro("SS", Roff.quoted(commandPath.joined(separator: " ")))
                page.text(Roff.text(spec.abstract))
                if !spec.discussion.isEmpty {
                    page.paragraph()
                    discussion(&page, spec.discussion)
                }
                if !spec.arguments.isEmpty {
                    page.paragraph()
                    page.line(Roff.bold("Arguments:"))
                    argumentList(&page, spec.arguments)
                }
                if !spec.visibleOptions.isEmpty {
                    page.paragraph()
                    page.line(Roff.bold("Options:"))
                    optionList(&page, spec.visibleOptions)
                }
            }
        }

        page.section("OPTIONS")
        if !family.visibleOptions.isEmpty {
            optionList(&page, family.visibleOptions)
            page.paragraph()
        }
        page.line("The global options of " + Self.reference(program) + " work with every command:")
        optionList(&page, root.visibleOptions)

        jsonOutputSection(&page, commands)

        var examples: [Example] = []
        for spec in [family] + Self.descendants(family) {
            for example in spec.examples where !examples.contains(example) { examples.append(example) }
        }
        examplesSection(&page, examples)
        factSections(&page)

        page.section("SEE ALSO")
        seeAlso(&page, [program] + root.visibleSubcommands.filter { $0.name != family.name }.map { program + "-" + $0.name })
        return page.text
    }

    // MARK: parts

    private func header(_ page: inout RoffPage, title: String) {
        page.line(".\\\" " + title + "(1): generated from the command table by 'cloudsync __generate-docs'.")
        page.line(".\\\" Do not edit; run 'swift package generate-docs' after changing a command.")
        page.macro("TH", Roff.quoted(title.uppercased()), "1", date, Roff.quoted("cloudsync " + version),
                   Roff.quoted("cloudsync Manual"))
        // Left-aligned, unhyphenated: paths, variables and options read (and copy) as typed.
        page.macro("ad", "l")
        page.macro("nh")
    }

    /// One `.SY` block per usage form: the command in bold, then the words, which the formatter
    /// fills with a hanging indent (a bracketed group never breaks).
    private func synopsis(_ page: inout RoffPage, _ spec: CommandSpec, path: [String]) {
        let command = path.joined(separator: " ")
        for form in UsageFormatter(width: Int.max / 2).forms(for: spec, path: path, prefixWidth: 0) {
            guard let line = form.first else { continue }
            page.macro("SY", Roff.quoted(command))
            let rest = line.hasPrefix(command) ? String(line.dropFirst(command.count)) : line
            for word in Self.usageWords(rest) {
                page.line(Roff.usage(word, command: "").replacingAll(" ", with: "\\ "))
            }
            page.macro("YS")
        }
    }

    /// The words of a usage form, a bracketed group (`[--zone <ZONE>]`) being one word.
    static func usageWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        var depth = 0
        for character in text {
            if character == " " && depth == 0 {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if character == "[" { depth += 1 }
            if character == "]" { depth = max(0, depth - 1) }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// Paragraphs separated by blank lines; lines starting with a blank are kept verbatim. The
    /// first paragraph continues the current one (mandoc frowns at `.PP` right after `.SH`).
    private func discussion(_ page: inout RoffPage, _ text: String) {
        var started = true
        var paragraph: [Substring] = []
        var verbatim: [Substring] = []
        func flushParagraph() {
            guard !paragraph.isEmpty else { return }
            if !started { page.paragraph() }
            started = false
            page.text(Roff.text(paragraph.map { $0.trimmingBlanks() }.joined(separator: " ")))
            paragraph = []
        }
        func flushVerbatim() {
            guard !verbatim.isEmpty else { return }
            if !started { page.paragraph() }
            started = false
            page.macro("RS", "4")
            page.macro("nf")
            for line in verbatim { page.verbatim(Roff.text(String(line))) }
            page.macro("fi")
            page.macro("RE")
            verbatim = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                flushParagraph()
                flushVerbatim()
            } else if line.first == " " || line.first == "\t" {
                flushParagraph()
                verbatim.append(line.drop { $0 == " " || $0 == "\t" })
            } else {
                flushVerbatim()
                paragraph.append(line)
            }
        }
        flushParagraph()
        flushVerbatim()
    }

    private func optionList(_ page: inout RoffPage, _ options: [OptionSpec]) {
        for option in options {
            page.macro("TP")
            var label = option.short.map { Roff.bold("-" + String($0)) + ", " } ?? ""
            label += Roff.bold(option.flagName)
            if let value = option.valueName { label += " " + Roff.italic("<" + value + ">") }
            page.line(label)
            page.text(Roff.text(HelpRenderer.optionHelp(option)))
        }
    }

    private func argumentList(_ page: inout RoffPage, _ arguments: [ArgumentSpec]) {
        for argument in arguments {
            page.macro("TP")
            page.line(Roff.italic(UsageFormatter.argumentWord(argument)))
            page.text(Roff.text(HelpRenderer.argumentHelp(argument)))
        }
    }

    /// JSON OUTPUT: what each command prints with --json (`CommandSpec.jsonOutput`).
    private func jsonOutputSection(_ page: inout RoffPage, _ commands: [(CommandSpec, [String])]) {
        let documented = commands.filter { $0.0.jsonOutput != nil }
        guard !documented.isEmpty else { return }
        page.section("JSON OUTPUT")
        page.text(Roff.text(Self.jsonOutputIntroduction))
        for (spec, path) in documented {
            guard let output = spec.jsonOutput else { continue }
            page.macro("SS", Roff.quoted(path.joined(separator: " ")))
            let lead = output.formDescription.isEmpty ? output.summary : output.formDescription + " " + output.summary
            page.text(Roff.text(lead))
            for key in output.keys {
                page.macro("TP")
                page.line(Roff.bold(key.name) + (key.optional ? " (optional)" : ""))
                page.text(Roff.text(key.help))
            }
        }
    }

    /// The paragraph that opens every JSON OUTPUT section.
    static let jsonOutputIntroduction = """
        With --json each command prints the shape below on stdout (pretty-printed on a terminal, \
        compact otherwise; NDJSON streams one compact object per line), and an error as \
        {"error": {"serverErrorCode", "reason"}} on stderr, with "retryAfter" (seconds) when \
        waiting helps and "ckErrorCode" (and the record's or zone's ID) when the cloud gave them; a \
        member without a value is left out, never null. Records are Apple's record dictionary (recordName, recordType, fields, \
        zoneID, ...) and zones Apple's zone dictionary (zoneID, syncToken, atomic, plus \
        capabilities and recordCount). Only the keys listed are printed at the top level.
        """

    private func examplesSection(_ page: inout RoffPage, _ examples: [Example]) {
        page.section("EXAMPLES")
        guard !examples.isEmpty else {
            page.line("See " + Self.reference("cloudsync") + ".")
            return
        }
        for (index, example) in examples.enumerated() {
            if index > 0 { page.paragraph() }
            page.text(Roff.bold("$ " + example.command))
            page.macro("RS", "4")
            page.text(Roff.text(example.explanation))
            page.macro("RE")
        }
    }

    private func factSections(_ page: inout RoffPage) {
        for (title, entries, style) in [("EXIT STATUS", ManualFacts.exitStatuses, Roff.bold),
                                        ("ENVIRONMENT", ManualFacts.environment, Roff.bold),
                                        ("FILES", ManualFacts.files, Roff.italic)] {
            page.section(title)
            for entry in entries {
                page.macro("TP")
                page.line(style(entry.term))
                page.text(Roff.text(entry.text))
            }
        }
    }

    private func seeAlso(_ page: inout RoffPage, _ names: [String]) {
        for (index, name) in names.enumerated() {
            page.macro("BR", Roff.text(name), index == names.count - 1 ? "(1)" : "(1),")
        }
    }

    // MARK: helpers

    /// `\fBcloudsync\-zone\fR(1)`.
    static func reference(_ name: String) -> String { Roff.bold(name) + "(1)" }

    /// The abstract without its final period, as the NAME line wants it.
    static func sentenceFragment(_ abstract: String) -> String {
        abstract.hasSuffix(".") ? String(abstract.dropLast()) : abstract
    }

    /// The family itself (if it runs) and every runnable visible command below it, depth first,
    /// with the words that invoke them.
    static func runnableCommands(_ family: CommandSpec, path: [String]) -> [(spec: CommandSpec, path: [String])] {
        var result: [(spec: CommandSpec, path: [String])] = []
        if family.run != nil || family.visibleSubcommands.isEmpty { result.append((family, path)) }
        for sub in family.visibleSubcommands {
            result += runnableCommands(sub, path: path + [sub.name])
        }
        return result
    }

    /// Every visible command below `spec`, depth first.
    static func descendants(_ spec: CommandSpec) -> [CommandSpec] {
        spec.visibleSubcommands.flatMap { [$0] + descendants($0) }
    }

    /// Every visible command below `spec` (groups too), depth first, with the words that
    /// invoke them.
    static func descendants(_ spec: CommandSpec, path: [String]) -> [(spec: CommandSpec, path: [String])] {
        spec.visibleSubcommands.flatMap { [($0, path + [$0.name])] + descendants($0, path: path + [$0.name]) }
    }
}

/// A man(7) page being written line by line.
struct RoffPage {
    private(set) var lines: [String] = []

    /// The source, ending with a newline.
    var text: String { lines.joined(separator: "\n") + "\n" }

    mutating func line(_ text: String) { lines.append(text) }

    /// Filled text (already escaped), broken at blanks into input lines of at most
    /// `inputWidth` bytes where possible; the formatter joins them again.
    mutating func text(_ text: String) {
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty && line.utf8.count + 1 + word.utf8.count > Self.inputWidth {
                lines.append(line)
                line = ""
            }
            if line.isEmpty {
                line = word.hasPrefix(".") || word.hasPrefix("'") ? "\\&" + word : String(word)
            } else {
                line += " " + word
            }
        }
        if !line.isEmpty { lines.append(line) }
    }

    /// A line of no-fill text (already escaped), continued with `\c` over several input lines
    /// when it is longer than `inputWidth` bytes (never inside an escape sequence).
    mutating func verbatim(_ text: String) {
        var rest = Substring(text)
        while rest.utf8.count > Self.inputWidth {
            var cut = rest.index(rest.startIndex, offsetBy: Self.inputWidth - 2, limitedBy: rest.endIndex) ?? rest.endIndex
            while cut > rest.startIndex && Self.insideEscape(rest, at: cut) {
                cut = rest.index(before: cut)
            }
            if cut == rest.startIndex { break }
            lines.append(String(rest[..<cut]) + "\\c")
            rest = rest[cut...]
            if rest.hasPrefix(".") || rest.hasPrefix("'") { rest = "\\&" + rest }
        }
        lines.append(String(rest))
    }

    /// True if `index` falls inside an escape sequence (`\e`, `\-`, `\fB`, `\[u2026]`) of `text`.
    private static func insideEscape(_ text: Substring, at index: Substring.Index) -> Bool {
        var position = text.startIndex
        while position < index {
            guard text[position] == "\\" else {
                position = text.index(after: position)
                continue
            }
            var end = text.index(after: position)
            if end < text.endIndex {
                switch text[end] {
                case "f": end = text.index(end, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                case "[": end = text[end...].firstIndex(of: "]").map { text.index(after: $0) } ?? text.endIndex
                case "(": end = text.index(end, offsetBy: 3, limitedBy: text.endIndex) ?? text.endIndex
                default: end = text.index(after: end)
                }
            }
            if index > position && index < end { return true }
            position = end
        }
        return false
    }

    /// The longest input line mandoc's style check accepts.
    static let inputWidth = 80

    mutating func macro(_ name: String, _ arguments: String...) {
        lines.append(([("." + name)] + arguments).joined(separator: " "))
    }

    mutating func section(_ title: String) { macro("SH", title.contains(" ") ? "\"" + title + "\"" : title) }

    mutating func paragraph() { macro("PP") }
}
