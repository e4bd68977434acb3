import CloudSyncCore
import TestSupport
import Testing

/// Issue 30 items 3, 4, 5 and 6 for `record`: zone hints, a query of an unknown type, system
/// fields in queries, and a save with nothing to save.
@Suite("record commands help a newcomer (end to end)")
struct NewcomerRecordTests {
    let home = TemporaryDirectory("record-newcomer")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func aMistypedZoneIsNamedWithTheNearestOne() {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        for zone in ["notes", "Ntoes"] {
            let save = cli.run(["record", "save", "Note", "n1", "--zone", zone, "--field", "title=Hi"])
            #expect(save.status == 3, "\(zone): \(save.stderr)")
            #expect(save.stderr.contains("does not exist") && save.stderr.contains("Did you mean 'Notes'?"), "\(save.stderr)")
            let query = cli.run(["record", "query", "Note", "--zone", zone])
            #expect(query.status == 3, "\(zone): \(query.stderr)")
            #expect(query.stderr.contains("Did you mean 'Notes'?"), "\(query.stderr)")
        }
    }

    @Test func aSaveOfANewTypeOrFieldCloseToAKnownOneIsWarnedOf() {
        #expect(cli.run(["record", "save", "Note", "n1", "--field", "title=Hi"]).status == 0)
        let type = cli.run(["record", "save", "Noet", "n2", "--field", "title=Hi"])
        #expect(type.status == 0, "a new type is allowed in development: \(type.stderr)")
        #expect(type.stderr.contains("'Noet' is a new record type") && type.stderr.contains("Did you mean 'Note'?"), "\(type.stderr)")
        let field = cli.run(["record", "save", "Note", "n3", "--field", "titel=Hi"])
        #expect(field.status == 0, "\(field.stderr)")
        #expect(field.stderr.contains("'titel' is a new field of Note") && field.stderr.contains("Did you mean 'title'?"), "\(field.stderr)")
        let fine = cli.run(["record", "save", "Note", "n4", "--field", "title=Hi"])
        #expect(fine.stderr.isEmpty, "\(fine.stderr)")
    }

    @Test func aQueryOfATypeTheSchemaLacksSuggestsTheNearest() {
        #expect(cli.run(["record", "save", "Note", "n1", "--field", "title=Hi"]).status == 0)
        let typo = cli.run(["record", "query", "Noet"])
        #expect(typo.status == 0, "\(typo.stderr)")
        #expect(typo.stderr.contains("no record type 'Noet'") && typo.stderr.contains("Did you mean 'Note'?"), "\(typo.stderr)")
        #expect(!typo.stdout.contains("(0 records)"), "only on a terminal")
        let known = cli.run(["record", "query", "Note", "--where", "title == %@", "--arg", "nothing"])
        #expect(known.status == 0 && known.stderr.isEmpty, "\(known.stderr)")
    }

    @Test func aSaveWithNoNameAndNoFieldIsAUsageError() {
        let empty = cli.run(["record", "save", "Note"])
        #expect(empty.status == 64, "\(empty.stderr)")
        #expect(empty.stderr.contains("needs a record name or a field"), "\(empty.stderr)")
        #expect(cli.run(["record", "save", "Note", "named"]).status == 0)
        #expect(cli.run(["record", "save", "Note", "--field", "title=Hi"]).status == 0)
        let query = cli.run(["record", "query", "Note", "--json"])
        #expect((try? query.json())?["records"]?.arrayValue?.count == 2, "\(query.stdout)")
    }

    @Test func systemFieldsAreQueriedOrRefusedOnTheEmbeddedCloud() {
        let problems = SystemFieldQueryScenario.problems(cli)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
