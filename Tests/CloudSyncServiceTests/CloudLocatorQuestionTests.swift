import CloudSyncCloud
import CloudSyncCore
import TestSupport
import Testing

/// What commands ask a locator instead of matching on its backend.
@Suite("Cloud locator: backend-neutral questions")
struct CloudLocatorQuestionTests {
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
}
