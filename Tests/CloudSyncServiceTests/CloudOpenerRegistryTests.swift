import CloudSyncCore
import CloudSyncService
import TestSupport
import Testing

/// The backends registered with `CloudLocator` (a plain array since issue 16, for start-up
/// time): the latest registration of a name wins, a URL no backend takes is refused, and a
/// locator opens with the backend that parsed it.
@Suite("Cloud backend registry")
struct CloudOpenerRegistryTests {
    static func failing(_ name: String, _ reason: String) -> CloudBackendRegistration {
        CloudBackendRegistration(name: name, form: .url(prefixes: [name + "://"]), acceptedForms: nil) { _, _ in
            throw CloudError(.internalError, reason)
        }
    }

    @Test func latestRegistrationOfANameWins() throws {
        CloudLocator.register(Self.failing("registry-test-a", "first"))
        CloudLocator.register(Self.failing("registry-test-b", "other"))
        CloudLocator.register(Self.failing("registry-test-a", "second"))
        func reason(_ url: String) -> String? {
            do {
                _ = try CloudLocator(parsing: url).open()
                return "opened"
            } catch let error as CloudError {
                return error.code == .invalidArguments ? nil : error.reason
            } catch {
                return "\(error)"
            }
        }
        #expect(reason("registry-test-a://x") == "second")
        #expect(reason("registry-test-b://x") == "other")
        #expect(reason("registry-test-none://x") == nil)
        #expect(CloudLocator.backends.filter { $0.name == "registry-test-a" }.count == 1)
    }

    @Test func aLocatorOfNoRegisteredBackendIsUnavailable() {
        let locator = CloudLocator(backend: "registry-test-missing", url: "registry-test-missing://x")
        #expect(cloudError { _ = try locator.open() }?.code == .serviceUnavailable)
    }
}
