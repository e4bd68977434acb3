@testable import CloudSyncCloud
import CloudSyncCore
import Testing

/// The openers registered with `CloudLocator` (a plain list since issue 16, for start-up time):
/// the latest registration of a scheme wins, other schemes are not found.
@Suite("Cloud opener registry")
struct CloudOpenerRegistryTests {
    @Test func latestRegistrationOfASchemeWins() throws {
        CloudLocator.register(scheme: "registry-test-a") { _, _ throws(CloudError) in
            throw CloudError(.internalError, "first")
        }
        CloudLocator.register(scheme: "registry-test-b") { _, _ throws(CloudError) in
            throw CloudError(.internalError, "other")
        }
        CloudLocator.register(scheme: "registry-test-a") { _, _ throws(CloudError) in
            throw CloudError(.internalError, "second")
        }
        func reason(_ scheme: String) -> String? {
            guard let opener = CloudLocator.opener(forScheme: scheme) else { return nil }
            do {
                _ = try opener("x", systemClock)
                return "opened"
            } catch {
                return error.reason
            }
        }
        #expect(reason("registry-test-a") == "second")
        #expect(reason("registry-test-b") == "other")
        #expect(reason("registry-test-none") == nil)
    }
}
