import CloudSyncService
import CloudSyncCore
import Testing

/// Naming an account by login (`SharingService.userRecordName(ofAccount:in:)`, over HTTP
/// `shares/user`) on every backend: as CloudKit's user discovery is opt-in, the answer is given
/// only between accounts that have a share, so it never tells a stranger whether a login exists.
@Suite("Sharing: naming accounts by login (conformance)")
struct SharedUserLookupConformanceTests {
    @Test(arguments: CloudBackend.allCases)
    func onlyAccountsWithAShareLearnEachOthersNames(_ backend: CloudBackend) throws {
        let w = try SharingConformanceTests.World(backend)
        let f = w.f
        let bob = try f.request("bob", .shared)
        let carol = try f.request("carol", .shared)
        // No relation yet: Alice's login is as unknown to Bob as a login nobody has.
        #expect(try w.sharing.userRecordName(ofAccount: "alice", in: bob) == nil)
        #expect(try w.sharing.userRecordName(ofAccount: "nobody", in: bob) == nil)
        #expect(try w.sharing.userRecordName(ofAccount: "bob", in: bob) == bob.userRecordName)
        // Invited (not yet accepted): Bob may name the owner, and she him.
        _ = try w.sharing.addParticipants(["bob"], permission: .readOnly, zoneName: "Trips", in: w.alice)
        #expect(try w.sharing.userRecordName(ofAccount: "alice", in: bob) == w.alice.userRecordName)
        #expect(try w.sharing.userRecordName(ofAccount: "bob", in: w.alice) == bob.userRecordName)
        // Carol, a stranger to both, learns neither.
        #expect(try w.sharing.userRecordName(ofAccount: "alice", in: carol) == nil)
        #expect(try w.sharing.userRecordName(ofAccount: "bob", in: carol) == nil)
        // Removed, Bob no longer may.
        _ = try w.sharing.removeParticipants(["bob"], zoneName: "Trips", in: w.alice)
        #expect(try w.sharing.userRecordName(ofAccount: "alice", in: bob) == nil)
    }
}
