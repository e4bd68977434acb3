/// One command or subcommand of the command table. Everything but `run` is plain data, so help,
/// man pages, shell completions and the REPL read the same table the dispatcher runs.
public struct CommandSpec: Sendable {
    /// The body of a command: it reads its context and arguments, writes through
    /// `context.output`, and throws `CLIError` or `CloudError` on failure.
    public typealias Run = @Sendable (CommandContext, ParsedArguments) throws -> Void

    /// The word typed on the command line: `zone`, `create`.
    public let name: String
    /// One line for command lists and the NAME section.
    public let abstract: String
    /// Longer text for the DESCRIPTION section. Paragraphs are separated by blank lines; lines
    /// that start with a space are kept as they are (for code and tables).
    public var discussion: String {
        switch discussionText {
        case .text(let text): text
        case .deferred(let make): make()
        }
    }
    /// The discussion, or (for a registered group such as the root, whose text is put together
    /// from the settings table) how to make it when help asks: not at every start.
    private let discussionText: DiscussionText
    /// The command's own options (the global options are accepted everywhere in addition).
    public let options: [OptionSpec]
    /// The positional arguments, in order.
    public let arguments: [ArgumentSpec]
    /// Worked examples for help.
    public let examples: [Example]
    /// What the command prints with `--json` (the man page's JSON OUTPUT section).
    public let jsonOutput: JSONOutput?
    /// Nested commands: `zone` has `create`, `list`, …
    public var subcommands: [CommandSpec] {
        switch table {
        case .built(let specs): specs
        case .registered(let entries): entries.map { $0.build() }
        }
    }
    /// The subcommands as given: specs, or (for the root) registry entries built on demand.
    private let table: SubcommandTable
    /// Hidden commands run but are not listed in help, completions or suggestions.
    public let hidden: Bool
    /// The body; nil for a group that only holds subcommands.
    public let run: Run?

    /// Describes a command.
    public init(name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [],
                arguments: [ArgumentSpec] = [], examples: [Example] = [], jsonOutput: JSONOutput? = nil,
                subcommands: [CommandSpec] = [], hidden: Bool = false, run: Run? = nil) {
        self.name = name
        self.abstract = abstract
        self.discussionText = .text(discussion)
        self.options = options
        self.arguments = arguments
        self.examples = examples
        self.jsonOutput = jsonOutput
        self.table = .built(subcommands)
        self.hidden = hidden
        self.run = run
    }

    /// A group whose subcommands are registry entries, each built only when reached (the root
    /// of the command table, or a large family: `otp` builds only the subcommand it runs).
    /// `discussion` is made only when read (help, man pages).
    public init(name: String, abstract: String, discussion: @escaping @autoclosure @Sendable () -> String = "",
                options: [OptionSpec] = [], examples: [Example] = [], registered: [CommandRegistry.Entry]) {
        self.name = name
        self.abstract = abstract
        self.discussionText = .deferred(discussion)
        self.options = options
        self.arguments = []
        self.examples = examples
        self.jsonOutput = nil
        self.table = .registered(registered)
        self.hidden = false
        self.run = nil
    }

    /// The direct subcommand called `name`, hidden ones included (the only one built, when
    /// the subcommands are registry entries).
    public func subcommand(named name: String) -> CommandSpec? {
        switch table {
        case .built(let specs): specs.first { $0.name == name }
        case .registered(let entries): entries.first { $0.name == name }?.build()
        }
    }

    /// The names the subcommands are registered under (registered ones are not built).
    var declaredSubcommandNames: [String] {
        switch table {
        case .built(let specs): specs.map(\.name)
        case .registered(let entries): entries.map(\.name)
        }
    }

    /// Whether the command has subcommands (without building registered ones).
    public var hasSubcommands: Bool {
        switch table {
        case .built(let specs): !specs.isEmpty
        case .registered(let entries): !entries.isEmpty
        }
    }

    /// A command's discussion as given, or made when read.
    private enum DiscussionText: Sendable {
        case text(String)
        case deferred(@Sendable () -> String)
    }

    /// Where subcommands come from.
    private enum SubcommandTable: Sendable {
        case built([CommandSpec])
        case registered([CommandRegistry.Entry])
    }

    /// The subcommands shown in help, in table order.
    public var visibleSubcommands: [CommandSpec] { subcommands.filter { !$0.hidden } }

    /// The options shown in help, in table order.
    public var visibleOptions: [OptionSpec] { options.filter { !$0.hidden } }

    /// The command's own option with this long name (without dashes).
    public func option(long: String) -> OptionSpec? { options.first { $0.long == long } }

    /// The command's own option with this one-letter name.
    public func option(short: Character) -> OptionSpec? { options.first { $0.short == short } }

    /// The command reached by following `path` (subcommand names) from this one.
    public func descendant(at path: [String]) -> CommandSpec? {
        var current = self
        for name in path {
            guard let next = current.subcommand(named: name) else { return nil }
            current = next
        }
        return current
    }
}
