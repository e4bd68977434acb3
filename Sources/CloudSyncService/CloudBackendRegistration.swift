import CloudSyncCore
import Synchronization

/// A backend `--cloud` can name, as the composition root registers it with `CloudLocator`:
/// the embedded SQLite cloud, PostgreSQL, a `cloudsync serve` over HTTP, the tests' memory
/// storage. Every backend is registered the same way, so this module knows none of them.
public struct CloudBackendRegistration: Sendable {
    /// How a URL names a cloud of the backend.
    public enum Form: Sendable, Hashable {
        /// A file on this machine: `NAME:///absolute/path` or `NAME:relative/path` (percent
        /// escapes decoded), where NAME is the backend's name.
        case file
        /// A URL that starts with one of `prefixes` (such as `postgres://`): passed to the
        /// opener whole.
        case url(prefixes: [String])
    }

    /// Opens the cloud a locator of this backend names.
    public typealias Opener = @Sendable (_ locator: CloudLocator, _ request: CloudOpenRequest) throws -> any CloudService

    /// The backend's name (`CloudLocator.backend`), and the URL scheme of a `.file` backend.
    public let name: String
    /// The URLs it takes.
    public let form: Form
    /// How messages that refuse a URL show the forms it takes, such as
    /// `postgres://USER@HOST/DB (or postgresql://)`; nil to leave it out (a test backend).
    public let acceptedForms: String?
    /// Opens a cloud.
    public let open: Opener

    /// A backend named `name` taking the URLs of `form`.
    public init(name: String, form: Form, acceptedForms: String?, open: @escaping Opener) {
        self.name = name
        self.form = form
        self.acceptedForms = acceptedForms
        self.open = open
    }
}

/// What opening a cloud may use besides its URL: the clock, and for a server the container,
/// the token and the settings of this invocation.
public struct CloudOpenRequest: Sendable {
    /// The service's clock.
    public var clock: CloudClock
    /// The container a client of a server uses when a call names none; nil for the backend's own.
    public var defaultContainer: String?
    /// The invocation's environment, for a backend's own variables (`CLOUDSYNC_CA_FILE`).
    public var environment: [String: String]
    /// The token to send to the server at a URL, looked up only when a backend asks.
    public var token: @Sendable (_ url: String) -> String?

    /// A request; the defaults suit the stores themselves (files, PostgreSQL).
    public init(clock: @escaping CloudClock = systemClock, defaultContainer: String? = nil,
                environment: [String: String] = [:], token: @escaping @Sendable (_ url: String) -> String? = { _ in nil }) {
        self.clock = clock
        self.defaultContainer = defaultContainer
        self.environment = environment
        self.token = token
    }
}

/// The registered backends, in registration order (which is the order messages list them).
///
/// A plain array of a non-generic struct rather than a dictionary of function values: the
/// executable registers at every start, and the first insert into a `[String: CloudOpener]`
/// made the Swift runtime build the metadata of a dictionary of typed-throws function values
/// from their mangled names, about a quarter of the CPU time of a short command such as
/// `otp code` (issue 16).
private let registeredBackends = Mutex<[CloudBackendRegistration]>([])

extension CloudLocator {
    /// Makes `CloudLocator` parse and open the URLs of `backend`; a second registration of the
    /// same name replaces the first. Called at the composition root (the executable, tests);
    /// nothing is loaded until such a URL is opened (libpq, libcurl).
    public static func register(_ backend: CloudBackendRegistration) {
        registeredBackends.withLock { backends in
            if let index = backends.firstIndex(where: { $0.name == backend.name }) {
                backends[index] = backend
            } else {
                backends.append(backend)
            }
        }
    }

    /// The registered backends, in registration order.
    public static var backends: [CloudBackendRegistration] {
        registeredBackends.withLock { $0 }
    }

    /// The backend registered as `name`, if any.
    public static func backend(named name: String) -> CloudBackendRegistration? {
        registeredBackends.withLock { backends in backends.first { $0.name == name } }
    }
}
