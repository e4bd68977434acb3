import TestSupport
import Testing

/// Issue 30 item 5 on PostgreSQL: system fields in queries answer or are refused (65) as on
/// the embedded cloud and over `serve` (`SystemFieldQueryScenario`).
@Suite("system fields in queries on PostgreSQL (end to end)")
struct PostgresSystemFieldQueryTests {
    @Test func systemFieldsAreQueriedOrRefused() throws {
        let cloud = try PostgresTestCloud()
        let problems = SystemFieldQueryScenario.problems(cloud.cli)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
