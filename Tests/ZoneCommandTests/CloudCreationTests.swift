import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 30 item 2: a typo in a cloud path never makes a new, empty cloud, and read-only
/// commands never create files; `cloud create` (or the first saving command on the default
/// cloud of a home) makes one.
@Suite("cloud files are made only on purpose (end to end)")
struct CloudCreationTests {
    let home = TemporaryDirectory("cloud-creation")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    @Test func anExplicitCloudThatDoesNotExistIsNotFound() throws {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0, "the default cloud is made on first use")
        #expect(exists(home.file("cloud.sqlite")))
        let typo = "sqlite://" + home.file("clod.sqlite")
        for arguments in [["zone", "list"], ["zone", "create", "Other"], ["record", "save", "Note", "n", "--field", "a=b"],
                          ["record", "query", "Note"]] {
            let result = cli.run(["--cloud", typo] + arguments)
            #expect(result.status == 3, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(home.file("clod.sqlite")) && result.stderr.contains("--cloud"), "\(result.stderr)")
            #expect(result.stderr.contains("cloud create"), "\(result.stderr)")
        }
        let fromVariable = cli.run(["zone", "create", "Other"], env: ["CLOUDSYNC_CLOUD": typo])
        #expect(fromVariable.status == 3 && fromVariable.stderr.contains("$CLOUDSYNC_CLOUD"), "\(fromVariable.stderr)")
        #expect(!exists(home.file("clod.sqlite")))

        let made = cli.run(["--cloud", typo, "cloud", "create", "--json"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try made.json()["created"] == .bool(true))
        #expect(exists(home.file("clod.sqlite")))
        #expect(cli.run(["--cloud", typo, "zone", "create", "Other"]).status == 0)
        let again = cli.run(["--cloud", typo, "cloud", "create"])
        #expect(again.status == 0 && again.stdout.contains("exists already"), "\(again.stdout)")
        // The default cloud named explicitly is still the default one.
        #expect(cli.run(["--cloud", "sqlite://" + home.file("cloud.sqlite"), "zone", "list"]).status == 0)
    }

    @Test func readOnlyCommandsCreateNothing() throws {
        let missing = home.file("does/not/exist")
        let runner = BinaryRunner(home: missing)
        let whoami = runner.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("user record: (unknown: no cloud yet"), "\(whoami.stdout)")
        for arguments in [["zone", "list"], ["record", "query", "Note"], ["record", "get", "n1"]] {
            let result = runner.run(arguments)
            #expect(result.status == 3, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("no cloud yet"), "\(result.stderr)")
        }
        #expect(!exists(home.file("does")), "a read-only command made the home")
        #expect(runner.run(["record", "save", "Note", "n1", "--field", "title=Hi"]).status == 0)
        #expect(exists(missing + "/cloud.sqlite"))
        #expect(runner.run(["record", "get", "n1"]).status == 0)
    }
}
