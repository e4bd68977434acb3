import CloudSyncCLI

/// The hidden `cloudsync __generate-docs [--output DIR] [--check]`: writes (or checks) the man
/// pages and completion scripts generated from the command table. The SwiftPM plugin
/// `generate-docs` runs it on the package folder.
public enum GenerateDocsCommand {
    /// The command name.
    public static let name = "__generate-docs"

    /// The command table entry.
    public static let spec = CommandSpec(
        name: name,
        abstract: "Write the man pages and shell completions generated from the command table.",
        discussion: """
            Writes man/cloudsync.1, one man/cloudsync-<command>.1 per command, and \
            completions/cloudsync.bash, completions/_cloudsync and completions/cloudsync.fish under \
            the output folder, and removes man pages of commands that are gone. With --check it \
            writes nothing, lists the files that differ, and fails if there are any.
            """,
        options: [
            OptionSpec("output", short: "o", value: "dir", help: "The package folder to write into (default: the current folder).",
                       completion: .file),
            OptionSpec("check", help: "Only report files that differ from the table; exit 1 if any do."),
        ],
        hidden: true,
        run: { context, arguments in
            guard let dispatcher = context.dispatcher else {
                throw CLIError.internalError("the documentation generator needs the dispatcher")
            }
            let directory = arguments.value("output") ?? "."
            let generator = DocsGenerator(root: dispatcher.rootCommand, version: dispatcher.version)
            if arguments.flag("check") {
                let outdated = generator.outdatedFiles(in: directory)
                guard outdated.isEmpty else {
                    for path in outdated { context.output.line("\(path)") }
                    throw CLIError.failed("\(outdated.count) generated file(s) differ from the command table; run 'swift package --allow-writing-to-package-directory generate-docs'")
                }
                context.output.info("man pages and completions are up to date")
                return
            }
            let changed: [String]
            do {
                changed = try generator.write(to: directory)
            } catch {
                throw CLIError.failed("\(error)")
            }
            for line in changed { context.output.line("\(line)") }
            if changed.isEmpty { context.output.info("man pages and completions are up to date") }
        })
}
