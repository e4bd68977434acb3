import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// `CredentialConfirmation` on every storage: a records modify made for a request admitted on a
/// cached credential confirms it in its own write transaction, or is refused and writes nothing
/// once the credential is revoked or was never stored. (PostgreSQL sends the check with its first
/// reads; SQLite and the memory storage use the protocol's default, which reads the row at once.
/// The HTTP backend is left out: the confirmation is bound inside `serve`, where
/// `CachedTokenRevocationTests` and `PostgresServeRoundTripTests` exercise it.)
@Suite("Credential confirmation in writes (conformance)")
struct CredentialConfirmationConformanceTests {
    @Test(arguments: [CloudBackend.sqlite, .memory, .postgres])
    func aWriteConfirmsItsCredentialOrIsRefusedAndWritesNothing(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let cloud = try #require(f.cloud as? StorageBackedCloud)
        let r = try f.request("alice")
        let made = try cloud.createToken(account: "alice")
        _ = try cloud.saveZones([ZoneSpec(name: "Z")], in: r)
        func save(_ name: String, confirming id: String) throws -> CredentialConfirmation {
            let confirmation = CredentialConfirmation(credentialID: id)
            try CredentialConfirmation.$current.withValue(confirmation) {
                try f.save([f.record(name, zone: "Z", r)], r)
            }
            return confirmation
        }

        #expect(try save("in-force", confirming: made.credential.id).isConfirmed)
        try cloud.revokeCredential(id: made.credential.id)
        for (name, id) in [("revoked", made.credential.id), ("never-stored", "tok_0000000000000000")] {
            let error = cloudError { _ = try save(name, confirming: id) }
            #expect(error?.code == .notAuthenticated, "\(name): \(String(describing: error))")
            #expect(error?.reason.contains("no longer in force") == true, "\(error?.reason ?? "")")
        }
        let names = try f.allChanges("Z", since: nil, r).changed.map(\.recordID.recordName)
        #expect(names == ["in-force"])
    }
}
