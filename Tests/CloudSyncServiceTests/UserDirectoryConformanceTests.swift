import CloudSyncService
import CloudSyncCore
import Testing

/// The user directory (issue 26, `UserDirectoryService`; over HTTP `users/lookup/id`,
/// `users/lookup/account`, `users/caller` and `users/caller/modify`) on every backend.
@Suite("Users: look-up by userRecordName and login, display names, discoverability (conformance)")
struct UserDirectoryConformanceTests {
    func users(_ f: CloudFixture) -> any UserDirectoryService { f.cloud as! any UserDirectoryService }

    func found(_ results: [Result<DirectoryUser, CloudError>]) -> [DirectoryUser?] {
        results.map { try? $0.get() }
    }

    @Test(arguments: CloudBackend.allCases)
    func namesAreSharedAndAHiddenAccountIsFoundOnlyByItsUserRecordName(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let alice = try f.request("alice", .public)
        let bob = try f.request("bob", .public)
        let directory = users(f)
        let me = try directory.updateCallerProfile(.name("Bob  The Builder"), in: bob)
        #expect(me.firstName == "Bob" && me.lastName == "The Builder" && me.discoverable == true && me.accountName == "bob")
        // Alice finds bob by login and by userRecordName, with his name; unknown users are
        // per-user NOT_FOUND entries, in the order asked.
        let results = try directory.lookUpUsers([.accountName("bob"), .accountName("nobody"), .userRecordName(bob.userRecordName),
                                                 .userRecordName("_00000000000000000000000000000000")], in: alice)
        let users = found(results)
        #expect(users[0]?.userRecordName == bob.userRecordName && users[0]?.displayName == "Bob The Builder")
        #expect(users[0]?.discoverable == nil, "another account's discoverability is not told")
        #expect(users[2] == users[0])
        #expect(users[1] == nil && users[3] == nil)
        for index in [1, 3] {
            guard case .failure(let error) = results[index] else { continue }
            #expect(error.code == .unknownItem, "\(error)")
        }
        // Hidden: not by login (as a login nobody has), still by userRecordName, without its login.
        _ = try directory.updateCallerProfile(UserProfileUpdate(discoverable: false), in: bob)
        let hidden = try directory.lookUpUsers([.accountName("bob"), .userRecordName(bob.userRecordName)], in: alice)
        guard case .failure(let byLogin) = hidden[0], case .success(let byID) = hidden[1] else {
            Issue.record("a hidden account was found by login, or not by userRecordName: \(hidden)")
            return
        }
        #expect(byLogin.code == .unknownItem)
        #expect(byLogin.reason.contains("no such account, or it is not discoverable"))
        #expect(byID.accountName == nil && byID.displayName == "Bob The Builder")
        // Bob still finds himself, and sees his own setting; the name he did not change stays.
        #expect(found(try directory.lookUpUsers([.accountName("bob")], in: bob))[0]?.userRecordName == bob.userRecordName)
        let own = try directory.callerIdentity(in: bob)
        #expect(own.discoverable == false && own.displayName == "Bob The Builder")
        // A look-up creates nothing: "nobody" is still unknown after being asked for.
        #expect(found(try directory.lookUpUsers([.accountName("nobody")], in: alice)) == [nil])
    }

    @Test(arguments: CloudBackend.allCases)
    func lookUpsAreBoundedAndNamesChecked(_ backend: CloudBackend) throws {
        let f = try backend.make()
        let alice = try f.request("alice", .public)
        let directory = users(f)
        let many = (0...UserDirectoryLimits.maxUsersPerLookup).map { UserLookupKey.accountName("user\($0)") }
        #expect(throws: CloudError.self) { try directory.lookUpUsers(many, in: alice) }
        do {
            _ = try directory.lookUpUsers(many, in: alice)
        } catch {
            #expect(error.code == .invalidArguments && error.reason.contains("at most 100"), "\(error)")
        }
        #expect(try directory.lookUpUsers(Array(many.prefix(100)), in: alice).count == 100)
        for bad in [String(repeating: "x", count: 201), "Bob\u{7}"] {
            do {
                _ = try directory.updateCallerProfile(UserProfileUpdate(firstName: bad), in: alice)
                Issue.record("accepted \(bad.debugDescription)")
            } catch {
                #expect(error.code == .invalidArguments, "\(error)")
            }
        }
        // An empty name clears it.
        _ = try directory.updateCallerProfile(.name("Alice Liddell"), in: alice)
        #expect(try directory.updateCallerProfile(.name(""), in: alice).displayName == nil)
    }
}
