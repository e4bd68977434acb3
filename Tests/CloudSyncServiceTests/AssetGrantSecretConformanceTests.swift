import CloudSyncService
import CloudSyncCore
import TestSupport
import Testing

/// The secret that signs asset URLs (issue 26) is the store's: made once, the same for every
/// process over the store, different in another store.
@Suite("Asset grant secret (conformance)")
struct AssetGrantSecretConformanceTests {
    @Test(arguments: [CloudBackend.sqlite, .memory, .postgres])
    func theSecretIsMadeOnceAndSharedByEveryNode(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let service = try #require(f.cloud.capabilities.admin)
        let secret = try service.assetGrantSecret()
        #expect(secret.utf8.count == 64 && secret.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) })
        #expect(try service.assetGrantSecret() == secret)
        let again = try #require(try backend.reopen(f).capabilities.admin)
        #expect(try again.assetGrantSecret() == secret, "another node over the same store signs alike")
        let other = try #require(try backend.make().cloud.capabilities.admin)
        #expect(try other.assetGrantSecret() != secret)
    }
}
