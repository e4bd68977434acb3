import CloudSyncService
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncPostgresCloud
import CloudSyncWebClient
import CloudSyncWebServer
import TestSupport
import Testing

/// What one save through `serve` costs its PostgreSQL (issue 28, figure 1), counted in round
/// trips through a real HTTP server and client: a token this process found in force before is
/// not looked up again for a records modify, its write transaction confirms it with its first
/// reads (`CredentialConfirmation`); the account's user record name is read once per process;
/// and the save itself is two round trips. A token revoked by another node is refused by that
/// confirmation, and nothing of its request is written.
@Suite("PostgreSQL round trips through serve")
struct PostgresServeRoundTripTests {
    /// A serve over `cloud` with its own HTTP client presenting `token`.
    struct Served {
        let server: HTTPServer
        let client: HTTPCloud
        let port: UInt16
        let request: DatabaseRequest
    }

    func serve(_ cloud: PostgresCloud, token: String, _ f: CloudFixture) throws -> Served {
        let handler = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ in cloud }),
                                             authenticator: StoredCredentialAuthenticator(service: cloud))
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0,
                                                                       maxBodySize: WebServicesHandler.maxJSONBodyBytes),
                                handler: handler)
        try server.start()
        let port = try #require(server.boundPort)
        let client = HTTPCloud(configuration: HTTPCloudConfiguration(
            baseURL: "http://127.0.0.1:\(port)", defaultContainer: f.container, token: { _ in token }))
        let account = try client.account(named: "alice")
        let r = DatabaseRequest(container: f.container, scope: .private, userRecordName: account.userRecordName, deviceID: "d")
        return Served(server: server, client: client, port: UInt16(port), request: r)
    }

    func save(_ name: String, _ served: Served) throws {
        let record = Record(recordID: RecordID(recordName: name, zoneID: served.request.zoneID("Z")), recordType: "Note",
                            fields: ["i": .int64(1)])
        let result = try served.client.modifyRecords(ModifyRequest(saves: [record]), in: served.request)
        #expect(result.saved.count == 1 && result.errors.isEmpty)
    }

    /// A fresh cloud, alice's token, a serve presenting it, zone Z and one save ("warm"): the
    /// token is in the serve's cache from then on.
    func servedAfterOneSave() throws -> (CloudFixture, PostgresCloud, (credential: CredentialRow, token: String), Served) {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let made = try cloud.createToken(account: "alice", admin: false)
        let served = try serve(cloud, token: made.token, f)
        _ = try served.client.saveZones([ZoneSpec(name: "Z", atomic: false)], in: served.request)
        try save("warm", served)
        return (f, cloud, made, served)
    }

    func expectRefusedAsRevoked(_ name: String, _ served: Served) throws {
        let error = cloudError { try save(name, served) }
        #expect(error?.code == .notAuthenticated, "\(String(describing: error))")
        #expect(error?.reason.contains("revoked") == true, "\(error?.reason ?? "")")
    }

    @Test func aSaveOnAKnownTokenCostsTwoRoundTrips() throws {
        let (f, cloud, made, served) = try servedAfterOneSave()
        defer { served.server.stop() }
        let start = cloud.roundTrips
        try save("one", served)
        // BEGIN with the token's check and the database, zone and record read, then the row,
        // the counters and COMMIT.
        #expect(cloud.roundTrips - start == 2)
        #expect(try f.allChanges("Z", since: nil, served.request).changed.map(\.recordID.recordName).sorted() == ["one", "warm"])

        // Revoked here: refused at once, from the head.
        try cloud.revokeCredential(id: made.credential.id)
        try expectRefusedAsRevoked("two", served)
    }

    /// Another node (another cloud over the same store) revokes the token this serve has in its
    /// cache: the next save is refused as revoked, by its own write's confirmation, and writes
    /// nothing; so is a modify whose body would have failed on its own.
    @Test func aTokenRevokedByAnotherNodeIsRefusedByTheWriteAndWritesNothing() throws {
        let (f, _, made, served) = try servedAfterOneSave()
        defer { served.server.stop() }
        let otherNode = try PostgresCloud(url: f.location)
        try otherNode.revokeCredential(id: made.credential.id)

        try expectRefusedAsRevoked("after", served)
        #expect(try f.allChanges("Z", since: nil, served.request).changed.map(\.recordID.recordName) == ["warm"])

        // A body that fails before any write (no such zone) gets the same refusal, not its own error.
        let raw = RawClient(port: served.port)
        defer { raw.close() }
        let body = #"{"operations":[{"operationType":"create","record":{"recordName":"x","recordType":"Note","fields":{}}}],"zoneID":{"zoneName":"NoSuchZone"}}"#
        let path = "/database/1/\(f.container)/development/private/records/modify"
        #expect(raw.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(made.token)\r\n"
                         + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"))
        let reply = raw.readResponse()
        #expect(reply.hasPrefix("HTTP/1.1 401"), "\(reply)")
        #expect(reply.contains("AUTHENTICATION_FAILED") && reply.contains("revoked"), "\(reply)")
    }
}
