import CloudSyncCore
import TestSupport
import Testing

/// Encrypted fields in a shared zone (issue 18 follow-up): the owner's data key is not shared,
/// so a participant reading one gets one clear line naming the limitation, never ciphertext
/// shown as data, never a crash.
@Suite("encrypted fields in shared zones (end to end)")
struct SharedEncryptedFieldTests {
    let accounts: AccountsCloud

    init(_ backend: AccountsBackend) throws {
        accounts = try AccountsCloud(backend, accounts: ["alice", "bob"], environment: ["CLOUDSYNC_PASSPHRASE": "correct horse"])
    }

    func run(_ account: String, _ arguments: [String]) -> ProcessResult {
        accounts.run(account, arguments)
    }

    @Test(arguments: AccountsBackend.allCases)
    static func aParticipantReadingAnEncryptedFieldGetsOneClearLine(_ backend: AccountsBackend) throws {
        try Self(backend).aParticipantReadingAnEncryptedFieldGetsOneClearLineScenario()
    }

    func aParticipantReadingAnEncryptedFieldGetsOneClearLineScenario() throws {
        #expect(run("alice", ["store", "sync", "on"]).status == 0)
        let put = run("alice", ["store", "put", "Login", "bank", "--zone", "Vault", "--create-zone", "--field", "user=alice",
                                "--field", "password=Sup3rSecret", "--encrypt", "password"])
        #expect(put.status == 0, "\(put.stderr)")
        #expect(run("alice", ["store", "put", "Login", "mail", "--zone", "Vault", "--field", "user=al"]).status == 0)
        #expect(run("alice", ["store", "sync"]).status == 0)
        let url = try #require(try run("alice", ["--json", "share", "create", "--zone", "Vault"]).json()["url"]?.stringValue)
        #expect(run("bob", ["zone", "list"]).status == 0)
        #expect(run("alice", ["share", "add", "--zone", "Vault", "bob", "--permission", "read-write"]).status == 0)
        #expect(run("bob", ["share", "accept", url]).status == 0)
        #expect(run("bob", ["store", "config", "shared-zones", "on"]).status == 0)
        let sync = run("bob", ["store", "sync", "on"])
        #expect(sync.status == 0, "\(sync.stderr)")

        // The record without encrypted fields reads as usual.
        #expect(run("bob", ["store", "get", "mail", "--zone", "Vault", "--owner", "alice"]).status == 0)
        for arguments in [["store", "get", "bank", "--zone", "Vault", "--owner", "alice"],
                          ["--json", "store", "get", "bank", "--zone", "Vault", "--owner", "alice"],
                          ["store", "query", "Login", "--owner", "alice"]] {
            let got = run("bob", arguments)
            #expect(got.status == 77, "\(arguments): \(got.status) \(got.stdout) \(got.stderr)")
            let lines = got.stderr.split(separator: "\n")
            #expect(lines.count == 1 && got.stderr.contains("encrypted") && got.stderr.contains("not shared"), "\(got.stderr)")
        }
        // Bob's edit of another field keeps the owner's ciphertext intact: Alice still reads it.
        let edit = run("bob", ["store", "put", "Login", "bank", "--zone", "Vault", "--owner", "alice", "--field", "user=bob"])
        #expect(edit.status == 0, "\(edit.stderr)")
        #expect(run("bob", ["store", "sync"]).status == 0)
        #expect(run("alice", ["store", "sync"]).status == 0)
        let mine = try run("alice", ["--json", "store", "get", "bank", "--zone", "Vault"]).firstRecord()
        #expect(mine["fields"]?["password"]?["value"]?.stringValue == "Sup3rSecret", "\(mine)")
        #expect(mine["fields"]?["user"]?["value"]?.stringValue == "bob", "\(mine)")
    }
}
