import CloudSyncCLI
import CloudSyncCloud
import CloudSyncCore

/// `cloudsync cloud check`: the cloud's storage itself (format, counts, integrity).
public enum CloudCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "cloud",
        abstract: "Inspect the cloud's storage.",
        discussion: """
            Works on the cloud named by --cloud (an embedded sqlite:// file or a postgres:// \
            server) as a whole, below accounts and devices.
            """,
        examples: [Example("cloudsync cloud check", "Show the format, the row counts and any integrity problem.")],
        subcommands: [check])

    static let check = CommandSpec(
        name: "check", abstract: "Check the cloud's format, counts and integrity.",
        discussion: """
            Prints the storage's format and version, the rows of each table, and checks that every \
            zone, database and key-value counter is at least the highest sequence it handed out, \
            that record counts match, and that no record, reference, asset, subscription or \
            key-value entry is left without its zone, database or store. Exits 1 when a problem \
            is found. Reads only: it never creates a cloud.
            """,
        run: { context, _ in
            let locator = try CloudLocator(parsing: context.settings.cloudURL)
            if locator.isKnownAbsent {
                throw CLIError.notFound("no cloud at \(locator.displayName)")
            }
            guard let checking = (try locator.open() as? ServiceCloud)?.storage as? any CloudStorageChecking else {
                throw CLIError.failed("the cloud at \(locator.displayName) cannot be checked from here")
            }
            let report = try checking.check()
            if context.output.isJSON {
                context.output.json(.object([
                    ("cloud", .string(locator.displayName)),
                    ("format", .string(report.format)),
                    ("version", .int(report.version)),
                    ("counts", .object(report.counts.map { ($0.table, JSONValue.int($0.rows)) })),
                    ("problems", .array(report.problems.map { .string($0) })),
                    ("ok", .bool(report.problems.isEmpty)),
                ]))
            } else {
                context.output.line("cloud \(locator.displayName): format \(report.format) version \(String(report.version))")
                context.output.table(["TABLE", "ROWS"], report.counts.map { [$0.table, String($0.rows)] })
                for problem in report.problems { context.output.line("problem: \(problem)") }
                if report.problems.isEmpty { context.output.line("no problems found") }
            }
            if !report.problems.isEmpty {
                throw CLIError.failed("\(report.problems.count) integrity problem(s) found")
            }
        })
}
