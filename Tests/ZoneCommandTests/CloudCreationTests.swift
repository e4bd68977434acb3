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

    /// Every file and folder under `path`, relative to it, sorted: `ls -R` of a home.
    func listing(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            names.append(name)
            if entry.pointee.d_type == UInt8(DT_DIR) { names += listing(path + "/" + name).map { name + "/" + $0 } }
        }
        return names.sorted()
    }

    /// Read-only commands on a default cloud not made yet answer from "nothing there" and
    /// create nothing, in a home that does not exist and in one that exists but is empty.
    @Test(arguments: ["does/not/exist", "empty"])
    func readOnlyCommandsCreateNothing(_ folder: String) throws {
        let path = home.file(folder)
        if folder == "empty" { #expect(mkdir(path, 0o700) == 0) }
        let runner = BinaryRunner(home: path)
        let before = listing(home.path)
        let whoami = runner.run(["whoami"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("user record: (unknown: no cloud yet"), "\(whoami.stdout)")

        let zones = runner.run(["zone", "list"])
        #expect(zones.status == 0, "\(zones.stderr)")
        #expect(!zones.stdout.contains("Notes"))
        let zonesJSON = runner.run(["zone", "list", "--json"])
        #expect(zonesJSON.status == 0, "\(zonesJSON.stderr)")
        let names = try zonesJSON.json()["zones"]?.arrayValue?.compactMap { $0["zoneID"]?["zoneName"]?.stringValue }
        #expect(names == ["_defaultZone"], "nothing but the zone every database has: \(zonesJSON.stdout)")
        let query = runner.run(["record", "query", "Note", "--json"])
        #expect(query.status == 0 && (try? query.json()["records"]) == .array([]), "\(query.stdout) \(query.stderr)")
        let get = runner.run(["record", "get", "n1"])
        #expect(get.status == 3, "not found: \(get.stderr)")
        for arguments in [["subscribe", "list"], ["share", "list"], ["token", "list"], ["fetch-changes"]] {
            let result = runner.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        #expect(runner.run(["cloud", "check"]).status == 3, "a check of a cloud that is not there")
        #expect(listing(home.path) == before, "a read-only command created files: \(listing(home.path))")

        // A command that writes makes the default home's cloud on first use, as the README says.
        #expect(runner.run(["record", "save", "Note", "n1", "--field", "title=Hi"]).status == 0)
        #expect(exists(path + "/cloud.sqlite"))
        #expect(runner.run(["record", "get", "n1"]).status == 0)
        #expect(try runner.run(["record", "query", "Note", "--json"]).json()["records"]?.arrayValue?.count == 1)
    }

    /// The commands that write still make the default home's cloud on first use.
    @Test(arguments: [["zone", "create", "Notes"], ["store", "sync"],
                      ["token", "create"], ["cloud", "create"]])
    func writingCommandsMakeTheDefaultCloud(_ arguments: [String]) throws {
        let path = home.file("fresh")
        let result = BinaryRunner(home: path).run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        #expect(exists(path + "/cloud.sqlite"), "\(arguments) made no cloud: \(listing(path))")
    }
}
