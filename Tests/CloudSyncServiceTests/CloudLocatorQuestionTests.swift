import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// What commands ask a locator instead of matching on its backend.
@Suite("Cloud locator: backend-neutral questions")
struct CloudLocatorQuestionTests {
    init() { CloudBackend.registerBackends() }

    @Test func embeddedFileAnswersWithItsPathAndFolder() throws {
        let locator = try CloudLocator(parsing: "sqlite:///srv/clouds/team.sqlite")
        #expect(locator.isEmbedded)
        #expect(locator.displayName == "/srv/clouds/team.sqlite")
        #expect(locator.localFolder == "/srv/clouds")
        #expect(try CloudLocator(parsing: "sqlite:c.sqlite").localFolder == ".")
        #expect(try CloudLocator(parsing: "sqlite:///c.sqlite").localFolder == "/")
    }

    @Test func serverHidesItsPasswordAndHasNoLocalFolder() throws {
        let locator = try CloudLocator(parsing: "postgres://sync:s3cret@db.example:5433/cloud?sslmode=require")
        #expect(!locator.isEmbedded)
        #expect(locator.displayName == "postgres://sync:***@db.example:5433/cloud?sslmode=require")
        #expect(!locator.displayName.contains("s3cret"))
        #expect(locator.localFolder == nil)
        #expect(!locator.isKnownAbsent)
        #expect(try CloudLocator(parsing: "postgresql://u@h/db").displayName == "postgresql://u@h/db")
    }

    @Test func anEmbeddedCloudIsKnownAbsentUntilOpened() throws {
        let dir = TemporaryDirectory()
        let locator = try CloudLocator(parsing: "sqlite://" + dir.file("cloud.sqlite"))
        #expect(locator.isKnownAbsent)
        _ = try locator.open()
        #expect(!locator.isKnownAbsent)
    }

    @Test func locatorParsesURLs() throws {
        #expect(try CloudLocator(parsing: "sqlite:///tmp/a%20b.sqlite")
                == CloudLocator(backend: "sqlite", url: "sqlite:///tmp/a%20b.sqlite", localPath: "/tmp/a b.sqlite"))
        #expect(try CloudLocator(parsing: "sqlite:rel/c.sqlite").localPath == "rel/c.sqlite")
        #expect(try CloudLocator(parsing: "postgres://u@h/db") == CloudLocator(backend: "postgres", url: "postgres://u@h/db"))
        #expect(try CloudLocator(parsing: "postgresql://u@h/db").backend == "postgres")
        #expect(try CloudLocator(parsing: "memory:7").backend == "memory")
        for bad in ["", "sqlite://relative", "sqlite:", "/abs/c.sqlite", "cloud.sqlite", "garbage", "nope://x",
                    "sqlite:///a\nb"] {
            #expect(cloudError { _ = try CloudLocator(parsing: bad) }?.code == .invalidArguments, "\(bad)")
        }
    }
}
