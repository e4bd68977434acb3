import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebClient
import CloudSyncWebServer
import Synchronization
import TestSupport

extension CloudBackend {
    /// The conformance suite through the network: `HTTPCloud` (libcurl) talking to an in-process
    /// `HTTPServer` + `WebServicesHandler` (what `cloudsync serve` runs), authenticated by stored
    /// tokens, over a fresh SQLite cloud. The location is the server's URL.
    static let http = CloudBackend(name: "http",
                                   freshLocation: { directory in try HTTPTestServers.start(cloudPath: directory.file("cloud.sqlite")) },
                                   open: { location, clock in try HTTPTestServers.open(location, clock: clock) })
}

/// The servers of the `http` backend by URL: each with its service, a clock the test can set
/// (the service reads it), and a token per account made on first use.
enum HTTPTestServers {
    final class Entry: Sendable {
        let server: HTTPServer
        let service: StorageBackedCloud
        let clock: ClockBox
        let tokens = Mutex<[String: String]>([:])

        init(server: HTTPServer, service: StorageBackedCloud, clock: ClockBox) {
            self.server = server
            self.service = service
            self.clock = clock
        }

        func token(for account: String) -> String? {
            tokens.withLock { tokens in
                if let token = tokens[account] { return token }
                guard let made = try? service.createToken(account: account, admin: account == HTTPTestServers.adminAccount) else { return nil }
                tokens[account] = made.token
                return made.token
            }
        }
    }

    static let entries = Mutex<[String: Entry]>([:])

    /// The account whose token carries the administrator role.
    static let adminAccount = "schema-admin"

    static func start(cloudPath: String) throws -> String {
        let box = ClockBox()
        let service = try SQLiteCloud(path: cloudPath, clock: { box.now() })
        let handler = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ in service }),
                                             authenticator: StoredCredentialAuthenticator(service: service))
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0,
                                                                       maxBodySize: WebServicesHandler.maxJSONBodyBytes),
                                handler: handler)
        do { try server.start() } catch { throw CloudError(.networkUnavailable, error.description) }
        let url = "http://127.0.0.1:\(server.boundPort ?? 0)"
        let entry = Entry(server: server, service: service, clock: box)
        entries.withLock { $0[url] = entry }
        return url
    }

    static func open(_ url: String, clock: @escaping CloudClock) throws -> any CloudService {
        guard let entry = entries.withLock({ $0[url] }) else { throw CloudError(.networkUnavailable, "no test server at \(url)") }
        entry.clock.set(clock)
        return HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: url, defaultContainer: "iCloud.com.example.Tests",
                                                               token: { account in entry.token(for: account) },
                                                               schemaAccount: "schema-admin"))
    }
}

/// A clock that can be swapped: the service of a test server reads the test's clock.
final class ClockBox: Sendable {
    let clock = Mutex<CloudClock>(systemClock)
    func set(_ new: @escaping CloudClock) { clock.withLock { $0 = new } }
    func now() -> Int64 { clock.withLock { $0 }() }
}
