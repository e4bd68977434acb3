import Glibc
import TestSupport
import Testing

/// Issue 30, item 12: help a newcomer can read, through the built binary and its generated man
/// pages.
@Suite struct NewcomerHelpTests {
    @Test func manPagesSayEachThingOnce() throws {
        let folder = TemporaryDirectory("newcomer-man")
        for page in ManPageTests.generate(folder) {
            let text = ManText.plain(String(decoding: TemporaryDirectory.readBytes(folder.path + "/man/" + page) ?? [],
                                            as: UTF8.self))
            #expect(!text.contains("(repeatable). Can be repeated."), "\(page) says it twice")
            #expect(!text.contains("(repeatable; default both). Can be repeated."), "\(page) says it twice")
            // A sentence that lists the values itself gets no "One of:".
            #expect(!text.contains("private (default) or shared. One of:"), "\(page)")
            #expect(!text.contains("or json. One of:"), "\(page)")
            #expect(!text.contains("<DATABASE>"), "\(page): --database is <SCOPE> everywhere")
        }
    }

    @Test func theRootHelpIsShortAndHelpAllHasEverything() throws {
        let folder = TemporaryDirectory("newcomer-help")
        let runner = BinaryRunner(home: folder.path)
        let short = runner.run(["--help"])
        #expect(short.status == 0)
        let lines = short.stdout.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 80, "cloudsync --help is \(lines) lines")
        for family in ["zone", "record", "store", "otp", "serve", "help"] {
            #expect(short.stdout.contains("\n  \(family) "), "the families: \(family)")
        }
        #expect(short.stdout.contains("$ cloudsync record save"), "the most used commands")
        #expect(short.stdout.contains("'cloudsync help -a'"))
        let all = runner.run(["help", "-a"])
        #expect(all.status == 0)
        for part in ["GLOBAL OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "CLOUDSYNC_NEW_PASSPHRASE", "--environment <env>",
                     "PLUGINS ON"] {
            #expect(all.stdout.contains(part), "help -a lacks \(part)")
        }
    }

    @Test func shareHelpKeepsItsJSONSchemaUnderJSONOutput() throws {
        let folder = TemporaryDirectory("newcomer-share-help")
        let help = BinaryRunner(home: folder.path).run(["share", "--help"])
        #expect(help.status == 0)
        let description = try #require(HelpText(help.stdout).section("DESCRIPTION"))
        #expect(!description.contains("shareID") && !description.contains("acceptanceStatus"), "\(description)")
        let paragraphs = description.split(separator: "\n\n", omittingEmptySubsequences: true).map { $0.split(separator: "\n").count }
        #expect(paragraphs.count >= 4 && paragraphs.allSatisfy { $0 <= 10 }, "paragraph lengths \(paragraphs)")
        _ = ManPageTests.generate(folder)
        let page = String(decoding: TemporaryDirectory.readBytes(folder.path + "/man/cloudsync-share.1") ?? [], as: UTF8.self)
        let jsonOutput = try #require(page.firstRange(of: ".SH \"JSON OUTPUT\"")).upperBound
        #expect(page[jsonOutput...].contains("shareID") && page[jsonOutput...].contains("acceptanceStatus"),
                "the shapes are in the man page's JSON OUTPUT")
    }

    @Test func anUnknownCommandIsAnErrorLikeAnyOther() {
        let folder = TemporaryDirectory("newcomer-unknown")
        let result = BinaryRunner(home: folder.path).run(["zoen", "list"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("cloudsync: error: 'zoen' is not a cloudsync command."), "\(result.stderr)")
        #expect(result.stderr.contains("Did you mean 'zone'?"))
    }

    @Test func storeStatusSaysWhetherSyncIsOn() throws {
        let folder = TemporaryDirectory("newcomer-status")
        let runner = BinaryRunner(home: folder.path)
        #expect(runner.run(["store", "status"]).stdout.contains("sync:                 off"))
        #expect(try runner.run(["store", "status", "--json"]).json()["syncEnabled"] == .bool(false))
        #expect(runner.run(["store", "sync", "on"]).status == 0)
        #expect(runner.run(["store", "status"]).stdout.contains("sync:                 on"))
        #expect(try runner.run(["store", "status", "--json"]).json()["syncEnabled"] == .bool(true))
    }
}
