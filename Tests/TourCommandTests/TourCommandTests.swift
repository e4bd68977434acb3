import TestSupport
import Testing

@Suite("cloudsync tour (end to end)")
struct TourCommandTests {
    @Test func tourRunsEveryStepAsExpected() throws {
        let home = TemporaryDirectory("tour-e2e")
        let result = BinaryRunner(home: home.path).run(["tour"], env: ["TMPDIR": home.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Tour complete"))
        #expect(result.stdout.contains("$ cloudsync --device phone fetch-changes"))
        #expect(result.stdout.contains("Already up to date."))
        #expect(result.stdout.contains("(exit 4, as expected)"))
        #expect(result.stdout.contains("(exit 3, as expected)"))
        // The throwaway home is removed afterwards; the user's own home is not touched.
        #expect(TemporaryDirectory.readBytes(home.file("cloud.sqlite")) == nil)
    }
}
