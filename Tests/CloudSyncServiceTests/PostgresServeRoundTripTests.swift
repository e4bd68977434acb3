import CloudSyncService
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncPostgresCloud
import CloudSyncWebClient
import CloudSyncWebServer
import TestSupport
import Testing

/// What one save through `serve` costs its PostgreSQL (issue 28, figure 1), counted in round
/// trips through a real HTTP server and client: the token is looked up once (by the check of
/// the request's head, whose verdict the full check reuses), the account's user record name is
/// read once per process, and the save itself is two round trips.
@Suite("PostgreSQL round trips through serve")
struct PostgresServeRoundTripTests {
    @Test func aLoneSaveLooksItsTokenUpOnceAndCostsThreeRoundTrips() throws {
        let f = try CloudBackend.postgres.make()
        let cloud = try #require(f.cloud as? PostgresCloud)
        let made = try cloud.createToken(account: "alice", admin: false)
        let token = made.token
        let handler = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ in cloud }),
                                             authenticator: StoredCredentialAuthenticator(service: cloud))
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0,
                                                                       maxBodySize: WebServicesHandler.maxJSONBodyBytes),
                                handler: handler)
        try server.start()
        defer { server.stop() }
        let client = HTTPCloud(configuration: HTTPCloudConfiguration(
            baseURL: "http://127.0.0.1:\(try #require(server.boundPort))", defaultContainer: f.container,
            token: { _ in token }))
        let account = try client.account(named: "alice")
        let r = DatabaseRequest(container: f.container, scope: .private, userRecordName: account.userRecordName, deviceID: "d")
        _ = try client.saveZones([ZoneSpec(name: "Z", atomic: false)], in: r)
        func save(_ name: String) throws {
            let record = Record(recordID: RecordID(recordName: name, zoneID: r.zoneID("Z")), recordType: "Note",
                                fields: ["i": .int64(1)])
            let result = try client.modifyRecords(ModifyRequest(saves: [record]), in: r)
            #expect(result.saved.count == 1 && result.errors.isEmpty)
        }
        try save("warm")
        let start = cloud.roundTrips
        try save("one")
        // The token (its read-only transaction's COMMIT goes with the next statement), then
        // BEGIN with the database, zone and record read, then the row, the counters and COMMIT.
        #expect(cloud.roundTrips - start == 3)
        #expect(try f.allChanges("Z", since: nil, r).changed.map(\.recordID.recordName).sorted() == ["one", "warm"])

        // Revoked: refused at once, looked up again at every request.
        try cloud.revokeCredential(id: made.credential.id)
        #expect(throws: CloudError.self) { try save("two") }
    }
}
