import CloudSyncCloud
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
        let service = try #require(f.cloud as? ServiceCloud)
        let (row, token) = try service.createToken(account: "alice")
        #expect(row.secret == ServiceCloud.tokenHash(token) && row.secret != token)
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
        try service.revokeCredential(id: row.id)
        #expect(try service.authenticate(token: token) == nil)
        #expect(cloudError { try service.revokeCredential(id: row.id) }?.code == .unknownItem)
        // Another process over the same store sees the same credentials.
        let again = try #require(try backend.reopen(f) as? ServiceCloud)
        #expect(try again.credentials().map(\.id) == ["k1"])
    }
}
