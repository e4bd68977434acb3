import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncWebClient
import CloudSyncWebProtocol
import CloudSyncWebServer
import TestSupport

/// An SQLite cloud in a temp folder behind a `WebServicesHandler`, optionally served on
/// 127.0.0.1 to an `HTTPCloud` with its own connection.
final class WebServicesFixture: @unchecked Sendable {
    let directory = TemporaryDirectory("webservices")
    let cloud: SQLiteCloud
    let handler: WebServicesHandler
    let container = "iCloud.com.example.Tests"
    private var server: LoopbackServer?

    init() throws {
        let cloud = try SQLiteCloud(path: directory.file("cloud.sqlite"))
        self.cloud = cloud
        handler = WebServicesHandler(cloudFor: { _ throws(CloudError) in cloud }, makeUUID: { "test-uuid" })
    }

    deinit { server?.stop() }

    /// The handler's answer to a request made as `account`.
    func call(_ tail: String, _ body: String = "{}", method: String = "POST", account: String? = "alice",
              scope: String = "private", headers: [(String, String)] = [], query: [(String, String)] = []) -> (status: Int, json: JSONValue, response: WebServicesResponse) {
        let request = WebServicesRequest(method: method, path: "/database/1/\(container)/development/\(scope)/\(tail)", query: query,
                                         headers: headers, body: Array(body.utf8), account: account)
        let response = handler.handle(request)
        return (response.status, (try? JSONValue.parse(bytes: response.body)) ?? .null, response)
    }

    /// Serves the handler on loopback and returns a client with its own connection.
    func client(environment: WebServicesEnvironment = .development) throws -> (HTTPCloud, LoopbackServer) {
        let handler = self.handler
        let server = try LoopbackServer { handler.handle($0) }
        self.server = server
        let client = HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL, environment: environment,
                                                                     defaultContainer: container, token: { "token-\($0)" }),
                               session: CurlSession())
        return (client, server)
    }

    func request(_ service: any CloudService, _ account: String, _ scope: DatabaseScope = .private, device: String = "dev1") throws -> DatabaseRequest {
        let user = try service.account(named: account)
        return DatabaseRequest(container: container, scope: scope, userRecordName: user.userRecordName, deviceID: device)
    }
}
