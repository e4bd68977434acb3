import CloudSyncCLI
import CloudSyncSession

/// What the schema commands print with --json (the man page's JSON OUTPUT section).
enum SchemaJSONOutput {
    static let export = JSONOutput.document("The schema as text, or with --output where it went.", [("?environment", "development or production."), ("?schema", "The .ckdb text."), ("?output", "With --output: the file written."), ("?recordTypes", "With --output: how many record types it holds.")])
    static let validate = JSONOutput.document("The file is valid (else an error).", [("valid", "true."), ("recordTypes", "Record types defined."), ("roles", "Roles defined.")])
    static let `import` = JSONOutput.document("The changes.", [("changes", "One line per change (+ added, ~ changed, - removed), as the text output shows them."), ("applied", "false with --dry-run.")])
    static let diff = JSONOutput.document("The changes importing would make.", [("changes", "One line per change (+ added, ~ changed, - removed)."), ("applied", "false.")])
    static let deploy = JSONOutput.document("The promotion to production.", [("violations", "Changes production refuses (then nothing is deployed)."), ("widerGrants", "Grants that widen who may create or write production records (deployed only with --allow-wider-grants)."), ("changes", "What production gains."), ("deployed", "false with --dry-run.")])
    static let reset = JSONOutput.document("The reset.", [("reset", "true.")])
    static let `init` = JSONOutput.document("The types and fields added from the local store.", [("changes", "One line per change (+ added, ~ changed, - removed)."), ("applied", "false with --dry-run.")])
    static let show = JSONOutput.document("The schema as data.", [("recordTypes", "[{name, fields: [{name, type, indexes}], grants}].")])
}
