/// Where the cursor stands in a partly typed command line, found by walking the command table
/// the way `CommandLineParser` does: global options anywhere, a level's own options after its
/// name, subcommands before the first positional, `--` ending the options.
public struct CompletionPosition: Sendable {
    /// The commands below the root, outermost first.
    public var path: [CommandSpec] = []
    /// The values of the options given so far (own and global), by long name.
    public var optionValues: [String: [String]] = [:]
    /// The boolean flags given so far, by long name.
    public var flags: Set<String> = []
    /// The positional words given so far.
    public var positionals: [String] = []
    /// True after `--`.
    public var endOfOptions = false
    /// The option whose value the cursor is on (the previous word was `--zone`).
    public var pendingOption: OptionSpec?
    /// A first word that is not a builtin: a plugin's arguments follow, which we cannot know.
    public var unresolvedCommand: String?
    /// The word being completed (possibly empty).
    public var current: String

    /// The command names from the top.
    public var names: [String] { path.map(\.name) }

    /// The parsed arguments so far, as a command would see them: positionals bound to the
    /// leaf's argument names in order (a repeating argument takes the rest).
    public var parsedArguments: ParsedArguments {
        var bound: [String: [String]] = [:]
        let specs = path.last?.arguments ?? []
        for (index, word) in positionals.enumerated() {
            guard let spec = index < specs.count ? specs[index] : specs.last.flatMap({ $0.repeating ? $0 : nil })
            else { break }
            bound[spec.name, default: []].append(word)
        }
        return ParsedArguments(commandPath: names, flags: flags, values: optionValues, arguments: bound)
    }

    /// Walks `words` (everything after the program name; the last one is the word being
    /// completed) through the table under `root`; `extraCommands` are top-level words known
    /// besides the table (the REPL's `use`, `exit`).
    public init(root: CommandSpec, words: [String], extraCommands: [CommandSpec] = []) {
        current = words.last ?? ""
        var spec = root
        var pending: OptionSpec?
        func lookup(long: String) -> OptionSpec? {
            path.isEmpty ? root.option(long: long) : spec.option(long: long) ?? root.option(long: long)
        }
        func lookup(short: Character) -> OptionSpec? {
            path.isEmpty ? root.option(short: short) : spec.option(short: short) ?? root.option(short: short)
        }
        for word in words.dropLast() {
            if unresolvedCommand != nil { break }
            if let option = pending {
                optionValues[option.long, default: []].append(word)
                pending = nil
                continue
            }
            if !endOfOptions {
                if word == "--" {
                    endOfOptions = true
                    continue
                }
                if word.hasPrefix("--") {
                    let body = word.dropFirst(2)
                    let name = String(body.prefix { $0 != "=" })
                    if let option = lookup(long: name) {
                        if let equals = body.firstIndex(of: "=") {
                            optionValues[option.long, default: []].append(String(body[body.index(after: equals)...]))
                        } else if option.takesValue {
                            pending = option
                        } else {
                            flags.insert(option.long)
                        }
                    }
                    continue
                }
                if word.hasPrefix("-") && word.count > 1 && !CompletionPosition.isNegativeNumber(word) {
                    var letters = Substring(word.dropFirst())
                    while let letter = letters.first, let option = lookup(short: letter) {
                        letters = letters.dropFirst()
                        if option.takesValue {
                            if letters.isEmpty {
                                pending = option
                            } else {
                                optionValues[option.long, default: []].append(String(letters))
                            }
                            break
                        }
                        flags.insert(option.long)
                    }
                    continue
                }
            }
            if path.isEmpty {
                if let command = root.subcommand(named: word) ?? extraCommands.first(where: { $0.name == word }) {
                    path.append(command)
                    spec = command
                    endOfOptions = false
                } else {
                    unresolvedCommand = word
                }
                continue
            }
            if !endOfOptions && positionals.isEmpty, let command = spec.subcommand(named: word) {
                path.append(command)
                spec = command
                continue
            }
            positionals.append(word)
        }
        pendingOption = pending
    }

    /// `-5`, `-3.25`, `-.5`: a positional, not an option (as the parser sees it).
    static func isNegativeNumber(_ word: String) -> Bool {
        let body = word.dropFirst()
        guard word.first == "-", body.last != "." else { return false }
        var digits = 0
        var dots = 0
        for character in body {
            if character.isASCII && character.isNumber {
                digits += 1
            } else if character == "." {
                dots += 1
            } else {
                return false
            }
        }
        return digits > 0 && dots <= 1
    }
}
