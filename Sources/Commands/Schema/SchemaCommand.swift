import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync schema export|validate|import|diff|deploy|reset|init|show`: the container's schema
/// in the CloudKit Schema Language (.ckdb), per environment.
public enum SchemaCommand {
    static let dryRun = OptionSpec("dry-run", help: "Show what would change and change nothing.")

    /// The command table entry.
    public static let spec = CommandSpec(
        name: "schema",
        abstract: "Export, check, import and deploy the container's schema (.ckdb).",
        discussion: """
            A container has two environments (--environment, default development), with separate \
            data and schemas. Development grows its schema as records are saved and takes imports; \
            production holds what was deployed and refuses unknown types and fields, wrong-typed \
            values, and filters or sorts on fields without the QUERYABLE or SORTABLE index. GRANT \
            lines rule who may read, create and write each type in the public database. Import, \
            deploy and reset need an administrator of the container (see 'cloudsync admin'; on \
            an embedded or postgres: cloud the first account to import or deploy becomes one; \
            through serve, a token made with 'token create --admin' or an account an administrator \
            added); anyone else gets exit 77. Files \
            use Apple's CloudKit Schema Language, as cktool export-schema writes it. --json gives \
            {schema} for export, {valid, recordTypes, roles} for validate, {changes, applied} for \
            import, diff and init, {violations, widerGrants, changes, deployed} for deploy, {reset} for reset \
            and {recordTypes: [{name, fields: [{name, type, indexes}], grants}]} for show.
            """,
        examples: [Example("cloudsync schema export --output schema.ckdb", "Save the development schema."),
                   Example("cloudsync schema import schema.ckdb --dry-run", "Show what an import would change."),
                   Example("cloudsync schema deploy", "Promote development to production.")],
        subcommands: [export, validate, importCommand, diff, deploy, reset, initCommand, show])

    /// The caller of a container-wide act: the command's account, which holds the store when the
    /// cloud is a file or PostgreSQL (a server judges its own callers by their credentials).
    static func caller(_ context: CommandContext) -> Caller {
        .holdingStore(context.settings.account)
    }

    /// The schema service of the session's cloud.
    static func service(_ context: CommandContext) throws -> any SchemaService {
        let session = try context.session()
        guard let service = session.capabilities.schema else {
            // Every backend offers it (an http(s):// cloud through the server's schema calls), so
            // the refusal names no other backend to use.
            throw CLIError.unavailable("this cloud does not offer schema administration")
        }
        return service
    }

    static let export = CommandSpec(
        name: "export", abstract: "Print the environment's schema as .ckdb text.",
        options: [OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE instead of standard output ('-').",
                             completion: .file)],
        examples: [Example("cloudsync schema export --environment production", "Print the production schema.")],
        jsonOutput: SchemaJSONOutput.export,
        run: { context, arguments in
            let schema = try service(context).schema(container: context.settings.container,
                                                     environment: context.settings.environment)
            let text = SchemaPrinter.print(schema)
            if let path = arguments.value("output"), path != "-" {
                try SchemaFile.write(text, to: path)
                if context.output.isJSON {
                    context.output.json(.object([("output", .string(path)), ("recordTypes", .int(Int64(schema.recordTypes.count)))]))
                } else {
                    context.output.info("wrote \(path) (\(schema.recordTypes.count) record types)")
                }
            } else if context.output.isJSON {
                context.output.json(.object([("environment", .string(context.settings.environment.rawValue)),
                                             ("schema", .string(text))]))
            } else {
                context.output.write(.text(text))
            }
        })

    static let validate = CommandSpec(
        name: "validate", abstract: "Check a .ckdb file without touching the cloud.",
        discussion: "A problem is reported as FILE:LINE:COLUMN: message, with exit status 65.",
        arguments: [ArgumentSpec("file", help: "The .ckdb file ('-' for standard input).", completion: .file)],
        examples: [
            Example("cloudsync schema validate schema.ckdb", "Check a schema file."),
        ],
        jsonOutput: SchemaJSONOutput.validate,
        run: { context, arguments in
            let path = arguments.argument("file") ?? "-"
            let schema = try SchemaFile.parse(path)
            if context.output.isJSON {
                context.output.json(.object([("valid", .bool(true)), ("recordTypes", .int(Int64(schema.recordTypes.count))),
                                             ("roles", .int(Int64(schema.roles.count)))]))
            } else {
                context.output.line("\(path): valid (\(schema.recordTypes.count) record types, \(schema.roles.count) roles)")
            }
        })

    static let importCommand = CommandSpec(
        name: "import", abstract: "Replace the development schema with a .ckdb file.",
        discussion: "Refused in production: change development, then run schema deploy.",
        options: [dryRun],
        arguments: [ArgumentSpec("file", help: "The .ckdb file ('-' for standard input).", completion: .file)],
        examples: [
            Example("cloudsync schema import schema.ckdb --dry-run", "Show what importing would change, and change nothing."),
            Example("cloudsync schema import schema.ckdb", "Make schema.ckdb the development schema."),
        ],
        jsonOutput: SchemaJSONOutput.`import`,
        run: { context, arguments in
            try requireDevelopment(context, "import")
            let schema = try SchemaFile.parse(arguments.argument("file") ?? "-")
            let diff = try service(context).importSchema(schema, container: context.settings.container,
                                                         dryRun: arguments.flag("dry-run"), by: caller(context))
            report(diff, applied: !arguments.flag("dry-run"), context)
        })

    static let diff = CommandSpec(
        name: "diff", abstract: "Show what importing a .ckdb file would change.",
        arguments: [ArgumentSpec("file", help: "The .ckdb file ('-' for standard input).", completion: .file)],
        examples: [
            Example("cloudsync schema diff schema.ckdb", "What importing schema.ckdb would add, change or remove."),
        ],
        jsonOutput: SchemaJSONOutput.diff,
        run: { context, arguments in
            let schema = try SchemaFile.parse(arguments.argument("file") ?? "-")
            let current = try service(context).schema(container: context.settings.container,
                                                      environment: context.settings.environment)
            report(SchemaDiff(from: current, to: schema), applied: false, context)
        })

    static let deploy = CommandSpec(
        name: "deploy", abstract: "Promote the development schema to production (additive changes only).",
        discussion: """
            New types, fields, indexes, roles and grants deploy. Removing a type or field that \
            production has, or changing a field's type, is refused with every violation listed \
            (exit 65), and nothing changes. A grant that widens who may create or write the records \
            of a type production has (a new CREATE or WRITE for _icloud or _world, or _creator's \
            WRITE given to _icloud) hands existing records to more accounts: it is refused unless \
            --allow-wider-grants, and the dry run lists it as such.
            """,
        options: [dryRun, OptionSpec("allow-wider-grants", help: "Deploy grants that widen who may create or write production records.")],
        examples: [
            Example("cloudsync schema deploy --dry-run", "What deploying would add to production."),
        ],
        jsonOutput: SchemaJSONOutput.deploy,
        run: { context, arguments in
            let check = try service(context).deploySchema(container: context.settings.container,
                                                          dryRun: arguments.flag("dry-run"),
                                                          allowWiderGrants: arguments.flag("allow-wider-grants"), by: caller(context))
            if !check.isAllowed {
                throw CLIError.badInput("deploy refused, nothing changed: "
                                        + check.violations.map(\.description).joined(separator: "; "))
            }
            if context.output.isJSON {
                context.output.json(.object([("violations", .array([])),
                                             ("widerGrants", .array(check.widerGrants.map { .string($0.description) })),
                                             ("changes", SchemaJSON.changes(check.diff)),
                                             ("deployed", .bool(!arguments.flag("dry-run")))]))
            } else {
                context.output.line(.text(check.diff.summary))
                for widening in check.widerGrants { context.output.info("wider grant: \(widening.description)") }
                if arguments.flag("dry-run") { context.output.info("dry run: production not changed") }
            }
        })

    static let reset = CommandSpec(
        name: "reset", abstract: "Delete the development schema and all development data.",
        options: [OptionSpec("yes", short: "y", help: "Confirm; required.")],
        examples: [
            Example("cloudsync schema reset --yes", "Start development over (production is untouched)."),
        ],
        jsonOutput: SchemaJSONOutput.reset,
        run: { context, arguments in
            try requireDevelopment(context, "reset")
            guard arguments.flag("yes") else {
                throw CLIError.usage("schema reset deletes every development record and the development schema; add --yes to confirm")
            }
            try service(context).resetDevelopment(container: context.settings.container, by: caller(context))
            if context.output.isJSON {
                context.output.json(.object([("reset", .bool(true))]))
            } else {
                context.output.line("development schema and data of \(context.settings.container) deleted")
            }
        })

    static let initCommand = CommandSpec(
        name: "init", abstract: "Add the record types and fields of this device's local store to development.",
        options: [dryRun],
        examples: [
            Example("cloudsync schema init --dry-run", "The types and fields the local store would add."),
        ],
        jsonOutput: SchemaJSONOutput.`init`,
        run: { context, arguments in
            try requireDevelopment(context, "init")
            let session = try context.session()
            let container = context.settings.container
            let service = try service(context)
            var schema = try service.schema(container: container, environment: .development)
            for record in try session.deviceStore().localRecords(container: container, type: nil) {
                var type = schema.recordType(named: record.recordType) ?? RecordTypeSchema(name: record.recordType)
                for (name, value) in record.fields where type.field(named: name) == nil {
                    type.setField(FieldSchema(name: name, type: SchemaFieldType(stored: value.typeName)))
                }
                schema.setRecordType(type)
            }
            let diff = try service.importSchema(schema, container: container, dryRun: arguments.flag("dry-run"),
                                                by: caller(context))
            report(diff, applied: !arguments.flag("dry-run"), context)
        })

    static let show = CommandSpec(
        name: "show", abstract: "Show record types, fields, their types and indexes as a table.",
        arguments: [ArgumentSpec("type", help: "Only this record type.", optional: true, completion: .recordType)],
        examples: [
            Example("cloudsync schema show Note", "The fields, indexes and grants of Note."),
        ],
        jsonOutput: SchemaJSONOutput.show,
        run: { context, arguments in
            let schema = try service(context).schema(container: context.settings.container,
                                                     environment: context.settings.environment)
            var types = schema.sortedRecordTypes
            if let name = arguments.argument("type") {
                guard let type = schema.recordType(named: name) else {
                    throw CLIError.notFound("record type \(NameRules.quoted(name)) is not in the \(context.settings.environment.rawValue) schema")
                }
                types = [type]
            }
            if context.output.isJSON {
                context.output.json(.object([("recordTypes", .array(types.map(SchemaJSON.recordType)))]))
            } else {
                context.output.table(["TYPE", "FIELD", "FIELD TYPE", "INDEXES", "GRANTS"], SchemaTable.rows(types))
            }
        })

    static func requireDevelopment(_ context: CommandContext, _ verb: String) throws {
        guard context.settings.environment == .development else {
            throw CLIError.usage("schema \(verb) works on development only; change development, then run 'cloudsync schema deploy'")
        }
    }

    static func report(_ diff: SchemaDiff, applied: Bool, _ context: CommandContext) {
        if context.output.isJSON {
            context.output.json(.object([("changes", SchemaJSON.changes(diff)), ("applied", .bool(applied && !diff.isEmpty))]))
        } else {
            context.output.line(.text(diff.summary))
        }
    }
}
