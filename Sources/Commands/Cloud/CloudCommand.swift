import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync cloud create|check|copy`: the cloud's storage itself (format, counts, integrity; a whole
/// copy from one backend to another).
public enum CloudCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "cloud",
        abstract: "Create, check or copy the cloud's storage.",
        discussion: """
            Works on the cloud named by --cloud (an embedded sqlite:// file or a postgres:// \
            server) as a whole, below accounts and devices. A cloud file named with --cloud, \
            CLOUDSYNC_CLOUD or the config file must exist (a typo must not make a new, empty \
            cloud): 'cloud create' makes it. The default cloud of the home is made by the first \
            command that saves.
            """,
        examples: [Example("cloudsync cloud check", "Show the format, the row counts and any integrity problem."),
                   Example("cloudsync cloud copy --from sqlite:///srv/cloud.sqlite --to postgres://sync@db/cloud",
                           "Move a cloud from one machine's file to a PostgreSQL server.")],
        subcommands: [create, check, copy])

    /// The storage behind a cloud URL, opened (a server's tables are created on first use).
    static func openStorage(_ url: String, creating: Bool) throws -> (CloudLocator, any CloudStorageCopying) {
        let locator = try CloudLocator(parsing: url)
        if locator.isKnownAbsent && !creating { throw CLIError.notFound("no cloud at \(locator.displayName)") }
        guard let storage = try locator.open().capabilities.admin?.storage.storageCapabilities.copying else {
            throw CLIError.failed("the cloud at \(locator.displayName) cannot be copied from here")
        }
        return (locator, storage)
    }

    static let create = CommandSpec(
        name: "create", abstract: "Create the cloud named by --cloud if it does not exist.",
        discussion: """
            Makes an empty embedded cloud (and its folder) at a sqlite:// URL, or the tables of a \
            postgres:// cloud; a cloud that exists is left as it is. Other commands refuse a cloud \
            file named explicitly that does not exist (3), so that a typo is not a new cloud.
            """,
        examples: [Example("cloudsync --cloud sqlite:///srv/team.sqlite cloud create", "Make a new cloud file for a team.")],
        jsonOutput: CloudJSONOutput.create,
        run: { context, _ in
            let locator = try CloudLocator(parsing: context.settings.cloudURL)
            let created = locator.isKnownAbsent
            if let folder = locator.localFolder { try FileSystem.makeDirectories(folder, mode: 0o700) }
            _ = try locator.open()
            if context.output.isJSON {
                context.output.json(.object([("cloud", .string(locator.displayName)), ("created", .bool(created))]))
            } else {
                context.output.line(created ? "created the cloud \(locator.displayName)" : "the cloud \(locator.displayName) exists already")
            }
        })

    static let copy = CommandSpec(
        name: "copy", abstract: "Copy a whole cloud to another URL (SQLite to PostgreSQL or back).",
        discussion: """
            Copies accounts, databases, zones, records, tombstones, references, assets, schema, \
            subscriptions, devices and their queues, key-value stores, every counter and the store \
            epoch, so devices keep their change tokens: pointed at the new URL, their next \
            fetch-changes is up to date. The target is written in one transaction (all or \
            nothing) and must be empty unless --force, which replaces what it holds. Stop the \
            writers of the source first: what they write during the copy is not carried.
            """,
        options: [OptionSpec("from", value: "URL", help: "The cloud to copy (sqlite:///… or postgres://…)."),
                  OptionSpec("to", value: "URL", help: "Where to copy it (created if needed, in an existing folder)."),
                  OptionSpec("force", help: "Replace what the target holds.")],
        examples: [
            Example("cloudsync cloud copy --from sqlite:///srv/cloud.sqlite --to postgres://cloudsync@localhost/cloudsync", "Move an embedded cloud to PostgreSQL."),
        ],
        jsonOutput: CloudJSONOutput.copy,
        run: { context, arguments in
            guard let fromURL = arguments.value("from"), let toURL = arguments.value("to") else {
                throw CLIError.usage("cloud copy needs --from URL and --to URL")
            }
            let (source, from) = try openStorage(fromURL, creating: false)
            let (target, to) = try openStorage(toURL, creating: true)
            if source == target { throw CLIError.usage("--from and --to name the same cloud") }
            let existing = try to.check().counts.reduce(Int64(0)) { $0 + $1.rows }
            if existing > 0 && !arguments.flag("force") {
                throw CLIError.conflict("the cloud at \(target.displayName) is not empty (\(String(existing)) rows); add --force to replace it")
            }
            let dump = try from.dump()
            try to.load(dump)
            if context.output.isJSON {
                context.output.json(.object([
                    ("from", .string(source.displayName)), ("to", .string(target.displayName)),
                    ("counts", .object(dump.tables.map { ($0.name, JSONValue.int(Int64($0.rows.count))) })),
                ]))
            } else {
                context.output.table(["TABLE", "ROWS"], dump.tables.map { [$0.name, String($0.rows.count)] })
                context.output.line("copied \(source.displayName) to \(target.displayName)")
            }
        })

    static let check = CommandSpec(
        name: "check", abstract: "Check the cloud's format, counts and integrity.",
        discussion: """
            Prints the storage's format and version, the rows of each table, and checks that every \
            zone, database and key-value counter is at least the highest sequence it handed out, \
            that record counts match, and that no record, reference, asset, subscription or \
            key-value entry is left without its zone, database or store. Exits 1 when a problem \
            is found. Reads only: it never creates a cloud.
            """,
        examples: [
            Example("cloudsync cloud check", "Check the cloud the settings name."),
            Example("cloudsync --cloud postgres://cloudsync@localhost/cloudsync cloud check", "Check a PostgreSQL cloud."),
        ],
        jsonOutput: CloudJSONOutput.check,
        run: { context, _ in
            let locator = try CloudLocator(parsing: context.settings.cloudURL)
            if locator.isKnownAbsent {
                throw CLIError.notFound("no cloud at \(locator.displayName)")
            }
            guard let checking = try locator.open().capabilities.admin?.storage.storageCapabilities.checking else {
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
