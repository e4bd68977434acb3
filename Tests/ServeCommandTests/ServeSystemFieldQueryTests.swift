import TestSupport
import Testing

/// Issue 30 item 5 over `serve`: system fields in queries answer or are refused (65) as on the
/// embedded cloud and PostgreSQL (`SystemFieldQueryScenario`).
@Suite("system fields in queries over serve (end to end)")
struct ServeSystemFieldQueryTests {
    @Test func systemFieldsAreQueriedOrRefused() throws {
        let fixture = try ServeFixture()
        let (home, cli) = fixture.client("system-fields")
        _ = home
        let problems = SystemFieldQueryScenario.problems(cli)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        #expect(fixture.stop() == 0)
    }
}
