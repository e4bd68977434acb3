import CloudSyncService
import CloudSyncCore
@testable import CloudSyncWebClient
import CloudSyncWebProtocol
import CloudSyncWebServer
import Synchronization
import Testing

/// What a load balancer in front of `serve` answers when a node is down or dies (issue 28):
/// HTTPCloud sends the request again (bounded) when no `serve` answered it, and a save repeated
/// after its first try was applied is counted as saved, not as a conflict.
@Suite("HTTPCloud: retries of what no serve answered (a balancer's 502/503, refused)")
struct TransportRetryTests {
    static let user = "_u1"
    static let balancerPage = Array("<html><body><h1>503 Service Unavailable</h1>No server is available to handle this request.</body></html>".utf8)

    static func users() -> WebServicesResponse {
        WebServicesResponse(status: 200, headers: [("Content-Type", "application/json")],
                            body: Array(#"{"userRecordName":"_u1","accountName":"alice"}"#.utf8))
    }

    static func http(_ base: String) -> HTTPCloud {
        var configuration = HTTPCloudConfiguration(baseURL: base, token: { _ in "token-alice" }, connectTimeout: 2, requestTimeout: 10)
        configuration.transportRetry = TransportRetryPolicy(maxAttempts: 4, baseDelay: 0.01, maxDelay: 0.05)
        return HTTPCloud(configuration: configuration, session: CurlSession())
    }

    static func database(device: String = "laptop") -> DatabaseRequest {
        DatabaseRequest(container: "iCloud.com.example.App", scope: .private, userRecordName: user, deviceID: device)
    }

    /// Note n1 in Notes as the server stored it (change tag t1), written by `writer`.
    struct StoredNote {
        let id = RecordID(recordName: "n1", zoneID: ZoneID(zoneName: "Notes", ownerRecordName: ZoneID.currentUserOwner))
        let fields: [String: FieldValue]
        let stored: Record

        init(fields: [String: FieldValue] = ["title": .string("Hello")], writer: String = "laptop") {
            self.fields = fields
            let stamp = ChangeStamp(timestamp: 1_700_000_000_000, userRecordName: TransportRetryTests.user, deviceID: writer)
            stored = Record(recordID: id, recordType: "Note", fields: fields,
                            system: SystemFields(changeTag: "t1", created: stamp, modified: stamp))
        }

        /// The save a client makes of it (no change tag: a creation).
        var save: ModifyRequest { ModifyRequest(saves: [Record(recordID: id, recordType: "Note", fields: fields)]) }

        /// serve's answer to that save once the record exists: a conflict carrying it.
        func conflictReply(_ reason: String = "record 'n1' already exists (change tag t1)") -> WebServicesResponse {
            let conflict = CloudError(.serverRecordChanged, reason, recordID: id, serverRecord: stored)
            return WebServicesResponse(status: 200, headers: [("Content-Type", "application/json")],
                                       body: RecordsCodec.encodeModifyReplyBytes(ModifyResult(errors: [id: conflict]), desiredKeys: nil,
                                                                                 uuid: "u"))
        }
    }

    @Test func aBalancersOwn503IsSentAgain() throws {
        let count = Mutex(0)
        let server = try LoopbackServer { _ in
            count.withLock { $0 += 1; return $0 } <= 2 ? WebServicesResponse(status: 503, body: Self.balancerPage) : Self.users()
        }
        #expect(try Self.http(server.baseURL).account(named: "alice").userRecordName == Self.user)
        #expect(server.requestCount == 3, "two 503s of the balancer, then the answer")
    }

    /// serve's own 503 (TRY_AGAIN_LATER with retryAfter) is RetryingCloud's to wait out: not
    /// repeated here, so no call is retried twice over.
    @Test func servesOwn503IsLeftToRetryingCloud() throws {
        let server = try LoopbackServer { _ in
            WebServicesResponse(status: 503, headers: [("Content-Type", "application/json"), ("Retry-After", "1")],
                                body: Array(#"{"serverErrorCode":"TRY_AGAIN_LATER","ckErrorCode":"serviceUnavailable","reason":"busy","retryAfter":1}"#.utf8))
        }
        var caught: CloudError?
        do { _ = try Self.http(server.baseURL).account(named: "alice") } catch { caught = error }
        #expect(caught?.code == .serviceUnavailable && caught?.retryAfter == 1, "\(String(describing: caught))")
        #expect(server.requestCount == 1)
    }

    @Test func theTriesAreBounded() throws {
        let server = try LoopbackServer { _ in WebServicesResponse(status: 502, body: Self.balancerPage) }
        var caught: CloudError?
        do { _ = try Self.http(server.baseURL).account(named: "alice") } catch { caught = error }
        #expect(caught?.code == .serviceUnavailable, "\(String(describing: caught))")
        #expect(server.requestCount == 4, "maxAttempts tries in all")
    }

    @Test func aRefusedConnectionIsTriedAgainThenUnavailable() throws {
        let server = try LoopbackServer { _ in Self.users() }
        let base = server.baseURL
        server.stop()
        var caught: CloudError?
        do { _ = try Self.http(base).account(named: "alice") } catch { caught = error }
        #expect(caught?.code == .networkUnavailable, "\(String(describing: caught))")
    }

    /// A 502 after a zone save may follow its commit; zones/modify is not safe to repeat.
    @Test func aWriteThatIsNotSafeToRepeatIsNotSentAgainAfterA502() throws {
        let zoneCalls = Mutex(0)
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/users/current") { return Self.users() }
            zoneCalls.withLock { $0 += 1 }
            return WebServicesResponse(status: 502, body: Self.balancerPage)
        }
        let http = Self.http(server.baseURL)
        _ = try http.account(named: "alice")
        var caught: CloudError?
        do { _ = try http.saveZones([ZoneSpec(name: "Z")], in: Self.database()) } catch { caught = error }
        #expect(caught?.code == .serviceUnavailable, "\(String(describing: caught))")
        #expect(zoneCalls.withLock { $0 } == 1)
    }

    /// The node applied the save, then died: the balancer answers 502. The repeat meets the
    /// record the first try saved; when it is this device's save it is reported as saved, when
    /// another device wrote it, as the conflict it is.
    @Test(arguments: ["laptop", "phone"])
    func aRepeatedSaveThatFindsItsOwnFirstTryIsSaved(writer: String) throws {
        let note = StoredNote(fields: ["title": .string("Hello"), "count": .int64(3)], writer: writer)
        let modifies = Mutex(0)
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/users/current") { return Self.users() }
            let n = modifies.withLock { $0 += 1; return $0 }
            if n == 1 { return WebServicesResponse(status: 502, body: Self.balancerPage) }
            return note.conflictReply()
        }
        let http = Self.http(server.baseURL)
        _ = try http.account(named: "alice")
        let result = try http.modifyRecords(note.save,
                                            in: Self.database(device: "laptop"))
        #expect(modifies.withLock { $0 } == 2, "sent again after the 502")
        if writer == "laptop" {
            #expect(result.errors.isEmpty, "\(result.errors)")
            #expect(result.saved.map(\.recordID) == [note.id])
            #expect(result.saved.first?.changeTag == "t1", "with the server's system fields")
        } else {
            #expect(result.saved.isEmpty)
            #expect(result.errors[note.id]?.code == .serverRecordChanged, "another device's record stays a conflict")
        }
    }

    /// The node applied the save and died (502); the repeat meets serve's own 503 on the node
    /// left (busy with everyone's repeats), which RetryingCloud waits out as a new call: that
    /// call's conflict with the first try is still reconciled.
    @Test func aSaveRepeatedByRetryingCloudAfterA502IsStillReconciled() throws {
        let note = StoredNote()
        let modifies = Mutex(0)
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/users/current") { return Self.users() }
            switch modifies.withLock({ $0 += 1; return $0 }) {
            case 1: return WebServicesResponse(status: 502, body: Self.balancerPage)
            case 2:
                return WebServicesResponse(status: 503, headers: [("Content-Type", "application/json")],
                                           body: Array(#"{"serverErrorCode":"TRY_AGAIN_LATER","ckErrorCode":"serviceUnavailable","reason":"busy","retryAfter":0.01}"#.utf8))
            default:
                return note.conflictReply("exists")
            }
        }
        let cloud = RetryingCloud(wrapping: Self.http(server.baseURL), policy: .tryLater)
        _ = try cloud.account(named: "alice")
        let result = try cloud.modifyRecords(note.save,
                                             in: Self.database())
        #expect(modifies.withLock { $0 } == 3)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.saved.map(\.recordID) == [note.id])
    }

    /// The node applied the save, then the kept-alive connection closed with no reply (a node
    /// killed behind a balancer does this at times instead of the balancer's 502). libcurl
    /// would send the request again by itself on a new connection, unseen, and the second send
    /// would meet the first as a conflict the client does not know it repeated (seen once in
    /// ClusterNodeKillTests: "serverRecordChanged: record 'c10-6' already exists"). The second
    /// send is HTTPCloud's own, a repeat, and its conflict with the first try is reconciled.
    @Test func aSaveWhoseConnectionClosedWithoutAReplyIsRepeatedAndReconciled() throws {
        let note = StoredNote()
        let modifies = Mutex(0)
        let server = try LoopbackServer(drop: { request in
            // The first save is read (and, on a real node, applied), then its connection closes.
            request.path.hasSuffix("/records/modify") && modifies.withLock { $0 += 1; return $0 } == 1
        }) { request in
            if request.path.hasSuffix("/users/current") { return Self.users() }
            return note.conflictReply()
        }
        let http = Self.http(server.baseURL)
        // The save goes out on the connection this call kept alive.
        _ = try http.account(named: "alice")
        let result = try http.modifyRecords(note.save,
                                            in: Self.database())
        #expect(modifies.withLock { $0 } == 2, "sent twice")
        #expect(result.errors.isEmpty, "the repeat's conflict with its own first try is no error: \(result.errors)")
        #expect(result.saved.map(\.recordID) == [note.id])
    }

    /// Without a 502 first, the same conflict is a conflict: only a repeat is reconciled.
    @Test func aConflictOnTheFirstTryStaysAConflict() throws {
        let note = StoredNote()
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/users/current") { return Self.users() }
            return note.conflictReply("exists")
        }
        let http = Self.http(server.baseURL)
        _ = try http.account(named: "alice")
        let result = try http.modifyRecords(note.save,
                                            in: Self.database())
        #expect(result.errors[note.id]?.code == .serverRecordChanged)
    }
}
