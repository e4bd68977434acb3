import CloudSyncService
import CloudSyncCore
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer
import Synchronization
import Testing

/// A server that closes a connection before any reply (at its connection limit) is retried as a
/// 503 is, by `RetryingCloud`'s try-later policy (issue 25, item 11): bounded, and only for
/// requests that are idempotent or were not sent in full. Before, the first close was the
/// command's exit 69 "Server returned nothing".
@Suite("HTTPCloud: connections closed before any reply")
struct DroppedConnectionTests {
    static func users(_ request: WebServicesRequest) -> WebServicesResponse {
        WebServicesResponse(status: 200, headers: [("Content-Type", "application/json")],
                            body: Array(#"{"userRecordName":"_u1","accountName":"alice"}"#.utf8))
    }

    static func cloud(_ server: LoopbackServer) -> RetryingCloud {
        RetryingCloud(wrapping: HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: server.baseURL, token: { _ in "token-alice" },
                                                                                connectTimeout: 2, requestTimeout: 10),
                                          session: CurlSession()),
                      policy: .tryLater)
    }

    @Test func aRequestReadThenDroppedIsRetriedWhenIdempotent() throws {
        let dropped = Mutex(0)
        let server = try LoopbackServer(drop: { _ in dropped.withLock { $0 += 1; return $0 <= 2 } }, respond: Self.users)
        let account = try Self.cloud(server).account(named: "alice")
        #expect(account.userRecordName == "_u1")
        #expect(server.requestCount == 3, "two dropped, the third answered")
    }

    @Test func connectionsClosedAtAcceptAreRetried() throws {
        let server = try LoopbackServer(closeAtAccept: 2, respond: Self.users)
        let account = try Self.cloud(server).account(named: "alice")
        #expect(account.userRecordName == "_u1")
        #expect(server.acceptedConnections == 3)
    }

    @Test func aServerThatAlwaysDropsIsTriedABoundedNumberOfTimes() throws {
        let server = try LoopbackServer(drop: { _ in true }, respond: Self.users)
        var caught: CloudError?
        do { _ = try Self.cloud(server).account(named: "alice") } catch { caught = error }
        #expect(caught?.code == .serviceUnavailable, "\(String(describing: caught))")
        #expect(caught?.reason.contains("closed the connection before replying") == true, "\(String(describing: caught))")
        #expect(caught?.reason.contains("gave up after 4 tries") == true, "\(String(describing: caught))")
        #expect(server.requestCount == 4)
    }

    /// A write sent in full may have been acted on: it is not sent again.
    @Test func aWriteSentInFullIsNotRetried() throws {
        let server = try LoopbackServer(drop: { $0.path.hasSuffix("/zones/modify") }, respond: Self.users)
        let cloud = Self.cloud(server)
        let account = try cloud.account(named: "alice")
        let request = DatabaseRequest(container: "iCloud.com.example.App", scope: .private, userRecordName: account.userRecordName,
                                      deviceID: "d")
        var caught: CloudError?
        do { _ = try cloud.saveZones([ZoneSpec(name: "Z")], in: request) } catch { caught = error }
        #expect(caught?.code == .networkFailure, "\(String(describing: caught))")
        // users/current, then zones/modify once: libcurl would send it once more by itself on a
        // new connection when the kept-alive one dies without a reply, but cannot rewind the
        // body (`RequestBodySource`); and never the four tries of RetryingCloud.
        #expect(server.requestCount == 2, "\(server.requestCount)")
    }

    @Test func theEndpointsThatAreSafeToSendAgain() {
        #expect(WebServicesEndpoint.recordsQuery.isIdempotent && WebServicesEndpoint.usersCurrent.isIdempotent)
        #expect(!WebServicesEndpoint.recordsModify.isIdempotent && !WebServicesEndpoint.notificationsPoll.isIdempotent)
        #expect(!WebServicesEndpoint.schemaReset.isIdempotent)
    }
}
