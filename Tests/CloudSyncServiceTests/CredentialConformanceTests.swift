import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// The credentials of `cloudsync serve` on every storage that keeps them (the HTTP backend's
/// storage is behind the server, which the serve tests drive).
@Suite("Credentials (conformance)")
struct CredentialConformanceTests {
    @Test(arguments: [CloudBackend.sqlite, .memory, .postgres])
    func tokensAreStoredHashedCheckedAndRevoked(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let service = try #require(f.cloud.capabilities.admin)
        let (row, token) = try service.createToken(account: "alice")
        #expect(row.secret == StorageBackedCloud.tokenHash(token) && row.secret != token)
        #expect(row.lastUsed == nil)
        #expect(try service.authenticate(token: token)?.account == "alice")
        #expect(try service.authenticate(token: token + "x") == nil)
        let listed = try service.credentials()
        #expect(listed.map(\.id) == [row.id])
        #expect(listed.first?.lastUsed != nil, "the use was noted")
        #expect(!listed.contains { $0.secret == token })
        let key = try service.addServerKey(account: "bob", publicKeyPEM: "PEM", keyID: "k1")
        #expect(try service.serverKey(id: "k1") == key)
        #expect(try service.serverKey(id: row.id) == nil, "a token is not a key")
        #expect(cloudError { _ = try service.addServerKey(account: "bob", publicKeyPEM: "PEM", keyID: "k1") }?.code == .constraintViolation)
        #expect(try service.check(token: token + "x") == .unknown)
        try service.revokeCredential(id: row.id)
        #expect(try service.authenticate(token: token) == nil)
        #expect(try service.check(token: token) == .revoked, "a revoked token is told apart from an unknown one")
        let twice = cloudError { try service.revokeCredential(id: row.id) }
        #expect(twice?.code == .unknownItem && twice?.reason.contains("revoked already") == true, "\(String(describing: twice))")
        #expect(cloudError { try service.revokeCredential(id: "tok_nope") }?.reason.contains("no token or key") == true)
        // A revoked key stops verifying and cannot come back under the same ID.
        try service.revokeCredential(id: "k1")
        #expect(try service.serverKey(id: "k1") == nil)
        #expect(try service.check(serverKeyID: "k1") == .revoked)
        #expect(try service.check(serverKeyID: "k2") == .unknown)
        #expect(cloudError { _ = try service.addServerKey(account: "bob", publicKeyPEM: "PEM", keyID: "k1") }?.reason.contains("revoked") == true)
        let (api, apiToken) = try service.createAPIToken(container: "iCloud.com.example.App")
        #expect(try service.check(apiToken: apiToken).inForce?.id == api.id)
        try service.revokeCredential(id: api.id)
        #expect(try service.check(apiToken: apiToken) == .revoked)
        #expect(try service.authenticate(apiToken: apiToken) == nil)
        // Another process over the same store sees the same credentials.
        let again = try #require(try backend.reopen(f).capabilities.admin)
        #expect(try again.credentials().isEmpty, "revoked credentials are not listed")
        #expect(try again.check(token: token) == .revoked)
    }
}
