import CloudSyncCLI

/// The command table flattened for the shell completion generators: every visible command
/// with the words that reach it, and how each option value and positional argument completes.
struct CompletionScriptTable {
    /// How a shell script completes one value.
    enum ValueKind: Equatable {
        /// Free text: nothing to offer.
        case none
        /// A file path (the shell's own file completion).
        case file
        /// One of these words.
        case words([String])
        /// Ask `cloudsync __complete` (zone names, record types, help topics, …).
        case live
    }

    /// One visible command.
    struct Entry {
        /// The command names below the program (empty for the root).
        var path: [String]
        var spec: CommandSpec

        /// The path as one string (`zone create`).
        var key: String { path.joined(separator: " ") }
        /// A shell-function suffix (`zone_create`, `fetch_changes`).
        var identifier: String {
            path.map { $0.map { $0.isLetter || $0.isNumber ? $0 : "_" } }.map { String($0) }.joined(separator: "_")
        }
    }

    let root: CommandSpec
    /// The root first, then every visible command depth first.
    let entries: [Entry]

    init(root: CommandSpec) {
        self.root = root
        var entries: [Entry] = []
        func visit(_ spec: CommandSpec, _ path: [String]) {
            entries.append(Entry(path: path, spec: spec))
            for sub in spec.visibleSubcommands { visit(sub, path + [sub.name]) }
        }
        visit(root, [])
        self.entries = entries
    }

    /// The global options offered at `path`: all of them at the top, all but `--version` below.
    func globalOptions(at path: [String]) -> [OptionSpec] {
        root.visibleOptions.filter { path.isEmpty || $0.long != "version" }
    }

    /// The command's own visible options (none for the root, whose options are the global ones).
    func ownOptions(_ entry: Entry) -> [OptionSpec] {
        entry.path.isEmpty ? [] : entry.spec.visibleOptions
    }

    /// How a value of `kind` completes in a script.
    static func valueKind(_ kind: CompletionKind) -> ValueKind {
        switch kind {
        case .none: .none
        case .file: .file
        case .values(let words): .words(words)
        case .live: .live
        }
    }

    /// How the positional arguments of `entry` complete (help topics are live).
    func argumentKinds(_ entry: Entry) -> [(ArgumentSpec, ValueKind)] {
        let isHelp = entry.path == [HelpCommand.name]
        return entry.spec.arguments.map { ($0, isHelp ? .live : Self.valueKind($0.completion)) }
    }

    /// `text` in POSIX single quotes.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingAll("'", with: "'\\''") + "'"
    }

    /// The header comment every script starts with (after a `#compdef` line for zsh).
    static func header(shell: String, install: [String]) -> [String] {
        ["# \(shell) completion for cloudsync.",
         "# Generated from the command table by 'cloudsync __generate-docs'; do not edit.",
         "# Regenerate with: swift package --allow-writing-to-package-directory generate-docs",
         "#"] + install.map { "# " + $0 } + [
         "# Commands, options and fixed values come from this file; live values (zone names,",
         "# record types, ...) from the hidden entry point 'cloudsync __complete -- <words>'.",
         ""]
    }
}
