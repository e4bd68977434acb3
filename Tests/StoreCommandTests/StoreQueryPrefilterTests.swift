import CloudSyncCore
import TestSupport
import Testing

/// `store query` with conditions pushed down to SQLite (issue 16) answers as the predicate
/// alone would, through the built binary: fields of mixed types, `%@`, `recordName`, `NOT`.
@Suite("store query with a pushed-down filter (end to end)")
struct StoreQueryPrefilterTests {
    let home = TemporaryDirectory("query-prefilter-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func names(_ arguments: [String]) throws -> [String] {
        let result = cli.run(["store", "query", "Note"] + arguments + ["--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try result.json()["records"]?.arrayValue?.compactMap { $0["recordName"]?.stringValue } ?? []
    }

    @Test func pushedDownQueriesAnswerAsThePredicate() throws {
        let puts: [(String, [String])] = [
            ("a", ["v:INT64=5", "t=x"]), ("b", ["v=5", "t=x"]), ("c", ["v:DOUBLE=5", "t=y"]), ("d", ["v=6", "t=xy"]),
            ("e", ["t=x"]), ("f", ["v:INT64=7", "t=x\"q"]),
        ]
        for (name, fields) in puts {
            #expect(cli.run(["store", "put", "Note", name] + fields.flatMap { ["--field", $0] }).status == 0)
        }
        #expect(try names(["--where", "v == 5"]) == ["a", "c"])
        #expect(try names(["--where", "v == '5'"]) == ["b"])
        #expect(try names(["--where", "v == %@", "--arg", "5"]) == ["a", "b", "c"])
        #expect(try names(["--where", "v > 5"]) == ["f"])
        #expect(try names(["--where", "t BEGINSWITH 'x'"]) == ["a", "b", "d", "e", "f"])
        #expect(try names(["--where", "t == 'x\"q'"]) == ["f"])
        #expect(try names(["--where", "v != 5"]) == ["b", "d", "e", "f"])
        #expect(try names(["--where", "NOT t == 'x'"]) == ["c", "d", "f"])
        #expect(try names(["--where", "recordName BEGINSWITH 'd' AND t == 'xy'"]) == ["d"])
        #expect(try names(["--where", "missing == 1"]) == [])
    }
}
