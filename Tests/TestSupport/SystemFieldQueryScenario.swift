import CloudSyncCore

/// Queries on the system fields (issue 30): Apple's `___createTime`, `___modTime`,
/// `___recordID`, `___createdBy` and `___modifiedBy`, and `creationDate`/`modificationDate`,
/// each answer what they ask, and a question the cloud cannot understand (an unknown `___`
/// name, a TIMESTAMP compared with text that is no time) is refused with 65, never answered
/// with nothing.
///
/// Shared by the embedded-cloud suite (RecordCommandTests), the PostgreSQL suite and the
/// `serve` suite, so every backend answers alike.
public enum SystemFieldQueryScenario {
    /// Runs the scenario with `cli` (a runner of one account whose cloud is the one tested);
    /// the problems found (empty when it passed).
    public static func problems(_ cli: BinaryRunner) -> [String] {
        var problems: [String] = []
        func run(_ arguments: [String]) -> ProcessResult { cli.run(arguments, device: "laptop") }
        for (arguments, what) in [(["zone", "create", "Notes"], "zone create"),
                                  (["record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=one"], "save n1"),
                                  (["record", "save", "Note", "n2", "--zone", "Notes", "--field", "title=two"], "save n2")] {
            let result = run(arguments)
            if result.status != 0 { problems.append("\(what): exit \(result.status): \(result.stderr)") }
        }
        let whoami = run(["whoami", "--json"])
        let user = (try? whoami.json())?["userRecordName"]?.stringValue ?? "?"
        /// The record names a query finds, in order, or nil (with a problem) when it fails.
        func names(_ predicate: String, _ arguments: [String], sort: String? = nil) -> [String]? {
            var words = ["record", "query", "Note", "--zone", "Notes", "--json", "--where", predicate]
            for argument in arguments { words += ["--arg", argument] }
            if let sort { words += ["--sort", sort] }
            let result = run(words)
            guard result.status == 0, let records = (try? result.json())?["records"]?.arrayValue else {
                problems.append("\(predicate) \(arguments): exit \(result.status): \(result.stderr)")
                return nil
            }
            return records.compactMap { $0["recordName"]?.stringValue }
        }
        let both = ["n1", "n2"]
        let expectations: [(String, [String], String?, [String])] = [
            ("___modTime > %@", ["0"], "recordName", both),
            ("modificationDate > %@", ["2001-01-01T00:00:00Z"], "recordName", both),
            ("___createTime >= %@", ["2001-01-01T00:00:00Z"], "recordName", both),
            ("creationDate < %@", ["4102444800000"], "recordName", both),
            ("___modTime > %@", ["4102444800000"], nil, []),
            ("___recordID == %@", ["n2"], nil, ["n2"]),
            ("___createdBy == %@", [user], "recordName", both),
            ("___modifiedBy == %@", [user], "-recordName", ["n2", "n1"]),
            ("___modifiedBy == %@", ["_nobody"], nil, []),
            ("TRUEPREDICATE", [], "___createTime,recordName", both),
        ]
        for (predicate, arguments, sort, expected) in expectations {
            guard let found = names(predicate, arguments, sort: sort) else { continue }
            if found != expected { problems.append("\(predicate) \(arguments) sort \(sort ?? "-"): found \(found), not \(expected)") }
        }
        let refusals: [([String], String)] = [
            (["--where", "___modtime > %@", "--arg", "0"], "Did you mean '___modTime'?"),
            (["--where", "___etag == %@", "--arg", "x"], "unknown system field '___etag'"),
            (["--where", "creationDate > %@", "--arg", "yesterday"], "creationDate is a TIMESTAMP"),
            (["--where", "___modTime == %@", "--arg", "soon"], "___modTime is a TIMESTAMP"),
            (["--sort", "___modTim"], "Did you mean '___modTime'?"),
        ]
        for (arguments, message) in refusals {
            let result = run(["record", "query", "Note", "--zone", "Notes"] + arguments)
            if result.status != 65 || !result.stderr.contains(message) {
                problems.append("\(arguments) should be refused with 65 and '\(message)': exit \(result.status): \(result.stderr)")
            }
        }
        return problems
    }
}
