import CloudSyncCore

/// `help COMMAND --json` (and `COMMAND --help --json`): a command's help page as one JSON
/// document: `{command, abstract, discussion, usage, subcommands, options, arguments, examples,
/// jsonOutput}` (`jsonOutput`: what the command prints with `--json`, or null).
enum HelpJSON {
    static func render(_ spec: CommandSpec, path: [String]) -> JSONValue {
        let usage = UsageFormatter().forms(for: spec, path: path, prefixWidth: 0).map { JSONValue.string($0.joined(separator: " ")) }
        return .object([
            ("command", .string(path.joined(separator: " "))),
            ("abstract", .string(spec.abstract)),
            ("discussion", .string(spec.discussion)),
            ("usage", .array(usage)),
            ("subcommands", .array(spec.visibleSubcommands.map {
                .object([("name", .string($0.name)), ("abstract", .string($0.abstract))])
            })),
            ("options", .array(spec.visibleOptions.map { option in
                .object([("name", .string(option.flagName)),
                         ("short", option.short.map { .string("-" + String($0)) } ?? .null),
                         ("value", option.valueName.map(JSONValue.string) ?? .null),
                         ("repeatable", .bool(option.repeatable)),
                         ("help", .string(option.help))])
            })),
            ("arguments", .array(spec.arguments.map { argument in
                .object([("name", .string(argument.name)), ("optional", .bool(argument.optional)),
                         ("repeating", .bool(argument.repeating)), ("help", .string(argument.help))])
            })),
            ("examples", .array(spec.examples.map {
                .object([("command", .string($0.command)), ("explanation", .string($0.explanation))])
            })),
            ("jsonOutput", spec.jsonOutput?.jsonValue ?? .null),
        ])
    }
}
