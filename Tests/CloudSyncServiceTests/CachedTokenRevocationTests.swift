import CloudSyncService
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncPostgres
import CloudSyncPostgresCloud
import CloudSyncWebServer
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Attacks on the admission of a `records/modify` from the token cache of `serve`
/// (`CredentialConfirmation`, `StorageBackedCloud+CredentialCache.swift`): a token revoked by
/// another node over the same PostgreSQL store, for a request that starts after the revocation
/// committed, gets the 401 revoked refusal and nothing else, and nothing of the request is
/// written: no record, no ledger entry, no account, not even the note of the token's use.
@Suite("Cached token revocation through serve")
struct CachedTokenRevocationTests {
    /// A clock the test moves (ms since 1970), read by any thread.
    final class MovableClock: Sendable {
        private let now = Atomic<Int64>(1_800_000_000_000)
        var read: CloudClock { { [self] in self.now.load(ordering: .relaxed) } }
        func advance(milliseconds: Int64) { now.add(milliseconds, ordering: .relaxed) }
    }

    /// A serve over `node` (with the asset grants and the console's authenticator as `serve` has them).
    /// A fresh store, the node the test serves (`node`: its clock and pool) and another node
    /// over the same store (`otherNode`, which revokes).
    func twoNodes(clock: @escaping CloudClock = systemClock,
                  connections: Int? = nil) throws -> (f: CloudFixture, node: PostgresCloud, otherNode: PostgresCloud) {
        let f = try CloudBackend.postgres.make()
        return (f, try PostgresCloud(url: f.location, clock: clock, connections: connections), try PostgresCloud(url: f.location))
    }

    func serve(_ node: PostgresCloud) throws -> (server: HTTPServer, port: UInt16) {
        let authenticator = AssetGrantAuthenticator(base: StoredCredentialAuthenticator(service: node),
                                                    grants: AssetGrants(service: node, publicURL: nil, scheme: "http"))
        let handler = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ in node }), authenticator: authenticator)
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0,
                                                                       maxBodySize: WebServicesHandler.maxJSONBodyBytes),
                                handler: handler)
        try server.start()
        return (server, try #require(server.boundPort))
    }

    /// One request on a connection of its own; the raw reply.
    func send(_ port: UInt16, _ method: String = "POST", path: String, token: String, body: String = "") -> String {
        let raw = RawClient(port: port)
        defer { raw.close() }
        raw.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                 + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return raw.readResponse()
    }

    func modifyPath(_ f: CloudFixture) -> String { "/database/1/\(f.container)/development/private/records/modify" }

    /// A modify body creating `names` (each `zone/name`) as Notes with `fields` (JSON).
    func creating(_ names: [String], fields: String = #"{"i":{"value":1,"type":"INT64"}}"#) -> String {
        let operations = names.map { path -> String in
            let parts = path.split(separator: "/")
            return #"{"operationType":"create","record":{"recordName":"\#(parts[1])","recordType":"Note","#
                + #""zoneID":{"zoneName":"\#(parts[0])"},"fields":\#(fields)}}"#
        }
        return #"{"operations":[\#(operations.joined(separator: ","))]}"#
    }

    func expectRevokedRefusal(_ reply: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.hasPrefix("HTTP/1.1 401"), "\(reply)", sourceLocation: sourceLocation)
        #expect(reply.contains("AUTHENTICATION_FAILED") && reply.contains("the token was revoked"), "\(reply)",
                sourceLocation: sourceLocation)
    }

    func names(_ zone: String, _ f: CloudFixture, _ request: DatabaseRequest) throws -> [String] {
        try f.allChanges(zone, since: nil, request).changed.map(\.recordID.recordName).sorted()
    }

    /// A token this process cached from a request that never reached its account (refused
    /// before, here 405), revoked on another node: the modify that follows is refused and makes
    /// no account row for the token's account (the account look-up comes before the write that
    /// would have refused the token).
    @Test func aRevokedCachedTokenMakesNoAccount() throws {
        let (f, node, otherNode) = try twoNodes()
        let made = try otherNode.createToken(account: "eve", admin: false)
        let served = try serve(node)
        defer { served.server.stop() }
        // Found in force (and cached) from the head; the handler refuses the method before the account.
        let first = send(served.port, "GET", path: modifyPath(f), token: made.token)
        #expect(first.hasPrefix("HTTP/1.1 405"), "\(first)")
        try otherNode.revokeCredential(id: made.credential.id)

        expectRevokedRefusal(send(served.port, path: modifyPath(f), token: made.token, body: creating(["_defaultZone/x"])))
        let account = try otherNode.storage.read { tx in try tx.userRecordName(ofAccount: "eve") }
        #expect(account == nil, "a revoked token made the account 'eve' (\(account ?? ""))")
    }

    /// A token revoked on another node is refused by the write, and its use is not noted on
    /// its revoked row (`token list` and the row's `last_used_ms` show no use after revocation).
    @Test func aRevokedCachedTokenIsNotNotedAsUsed() throws {
        let clock = MovableClock()
        let (f, node, otherNode) = try twoNodes(clock: clock.read)
        let made = try node.createToken(account: "alice", admin: false)
        let served = try serve(node)
        defer { served.server.stop() }
        let request = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: request)
        expectSaved(send(served.port, path: modifyPath(f), token: made.token, body: creating(["Z/warm"])))
        clock.advance(milliseconds: 5_000)
        expectSaved(send(served.port, path: modifyPath(f), token: made.token, body: creating(["Z/cached"])))
        try otherNode.revokeCredential(id: made.credential.id)
        let before = try #require(try otherNode.storage.read { tx in try tx.credential(id: made.credential.id) })

        clock.advance(milliseconds: 5_000)
        expectRevokedRefusal(send(served.port, path: modifyPath(f), token: made.token, body: creating(["Z/after"])))
        let after = try #require(try otherNode.storage.read { tx in try tx.credential(id: made.credential.id) })
        #expect(after.lastUsed == before.lastUsed, "a revoked token's use was noted: \(String(describing: after.lastUsed))")
        #expect(try names("Z", f, request) == ["cached", "warm"])
    }

    /// A modify spanning two zones (no first reads to send the check with: the check is
    /// answered before COMMIT, after the records, the zones' counters and the ledger's entry
    /// were written in the transaction): refused, and none of it is left.
    @Test func aRevokedCachedTokenWritesNothingAcrossZones() throws {
        let (f, node, otherNode) = try twoNodes()
        let made = try node.createToken(account: "alice", admin: false)
        let served = try serve(node)
        defer { served.server.stop() }
        let request = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z1", atomic: false), ZoneSpec(name: "Z2", atomic: true)], in: request)
        expectSaved(send(served.port, path: modifyPath(f), token: made.token, body: creating(["Z1/a", "Z2/b"])), count: 2)
        let usage = try otherNode.usage(in: request)
        try otherNode.revokeCredential(id: made.credential.id)

        expectRevokedRefusal(send(served.port, path: modifyPath(f), token: made.token, body: creating(["Z1/c", "Z2/d"])))
        #expect(try names("Z1", f, request) == ["a"])
        #expect(try names("Z2", f, request) == ["b"])
        #expect(try otherNode.usage(in: request) == usage)
    }

    /// Two accounts' modifies carried in one group commit (one lane, held while both queue),
    /// one presenting a token revoked on another node: that one is refused and writes nothing,
    /// the other is saved and answered as if alone (neither confirms nor refuses the other).
    @Test func aRevokedTokenInAGroupCommitRefusesOnlyItsOwnWrite() throws {
        let clock = MovableClock()
        let (f, node, otherNode) = try twoNodes(clock: clock.read, connections: 1)
        let alice = try node.createToken(account: "alice", admin: false)
        let bob = try node.createToken(account: "bob", admin: false)
        let served = try serve(node)
        defer { served.server.stop() }
        let aliceRequest = try f.request("alice"), bobRequest = try f.request("bob")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: aliceRequest)
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: bobRequest)
        // Cached, their use noted at this (frozen) time: the requests below need no connection before their write.
        for (token, name) in [(alice.token, "Z/a1"), (bob.token, "Z/b1"), (alice.token, "Z/a2"), (bob.token, "Z/b2")] {
            expectSaved(send(served.port, path: modifyPath(f), token: token, body: creating([name])))
        }
        try otherNode.revokeCredential(id: alice.credential.id)

        // The lane held by a write of a third database until both requests are queued behind it.
        let release = Atomic<Bool>(false)
        let holder = startThread {
            _ = try? node.storage.write(database: DatabaseWriteKey(container: f.container, scope: .public, owner: "")) { _ in
                while !release.load(ordering: .acquiring) { usleep(1_000) }
            }
        }
        let replies = Mutex<[String: String]>([:])
        let clients = [("alice", alice.token, "Z/a3"), ("bob", bob.token, "Z/b3")].map { who, token, name in
            startThread {
                let reply = send(served.port, path: modifyPath(f), token: token, body: creating([name]))
                replies.withLock { $0[who] = reply }
            }
        }
        usleep(500_000)
        release.store(true, ordering: .releasing)
        pthread_join(holder, nil)
        for client in clients { pthread_join(client, nil) }

        let answered = replies.withLock { $0 }
        expectRevokedRefusal(answered["alice"] ?? "")
        expectSaved(answered["bob"] ?? "")
        #expect(try names("Z", f, aliceRequest) == ["a1", "a2"])
        #expect(try names("Z", f, bobRequest) == ["b1", "b2", "b3"])
    }

    /// A cached token whose row is gone from the store (removed by hand, a store restored from
    /// before it was made): a modify of one zone (the check sent with its first reads) and one
    /// of two zones (the check answered on its own) are refused as unknown, and write nothing.
    @Test func aCachedTokenWhoseRowIsGoneIsRefusedAsUnknown() throws {
        let f = try CloudBackend.postgres.make()
        let node = try PostgresCloud(url: f.location)
        let made = [try node.createToken(account: "alice", admin: false), try node.createToken(account: "alice", admin: false)]
        let served = try serve(node)
        defer { served.server.stop() }
        let request = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z1", atomic: false), ZoneSpec(name: "Z2", atomic: false)], in: request)
        for (index, token) in made.enumerated() {
            expectSaved(send(served.port, path: modifyPath(f), token: token.token, body: creating(["Z1/a\(index)"])))
        }
        let url = try PostgresURL(f.location)
        let connection = try PostgresConnection(url)
        try connection.execute("SET search_path TO \"\(try #require(url.schema))\"")
        try connection.execute("DELETE FROM credentials WHERE account = 'alice'")

        for (token, body) in zip(made.map(\.token), [creating(["Z1/b"]), creating(["Z1/c", "Z2/d"])]) {
            let reply = send(served.port, path: modifyPath(f), token: token, body: body)
            #expect(reply.hasPrefix("HTTP/1.1 401"), "\(reply)")
            #expect(reply.contains("AUTHENTICATION_FAILED") && reply.contains("the token is unknown"), "\(reply)")
        }
        #expect(try names("Z1", f, request) == ["a0", "a1"])
        #expect(try names("Z2", f, request) == [])
    }

    /// A participant's save into the owner's shared zone (the shared database, run on the
    /// owner's view, whose write permission is checked in the write): the participant's token
    /// revoked on another node is refused, and the owner's zone is left as it was.
    @Test func aRevokedParticipantWritesNothingInTheOwnersZone() throws {
        let (f, node, otherNode) = try twoNodes()
        let sharing = try #require(f.cloud as? StorageBackedCloud)
        let bob = try node.createToken(account: "bob", admin: false)
        let served = try serve(node)
        defer { served.server.stop() }
        let owner = try f.request("alice"), participant = try f.request("bob", .shared)
        _ = try f.cloud.saveZones([ZoneSpec(name: "S", atomic: false)], in: owner)
        let share = try sharing.saveShare(zoneName: "S", title: nil, publicPermission: nil, in: owner)
        _ = try sharing.addParticipants(["bob"], permission: .readWrite, zoneName: "S", in: owner)
        _ = try sharing.acceptShare(url: share.url, in: participant)
        let path = "/database/1/\(f.container)/development/shared/records/modify"
        func body(_ name: String) -> String {
            #"{"zoneID":{"zoneName":"S","ownerRecordName":"\#(owner.userRecordName)"},"operations":[{"operationType":"create","#
                + #""record":{"recordName":"\#(name)","recordType":"Note","fields":{"i":{"value":1,"type":"INT64"}}}}]}"#
        }
        expectSaved(send(served.port, path: path, token: bob.token, body: body("byBob")))
        try otherNode.revokeCredential(id: bob.credential.id)

        expectRevokedRefusal(send(served.port, path: path, token: bob.token, body: body("afterRevocation")))
        #expect(try names("S", f, owner).filter { !$0.hasPrefix("cloudkit.") } == ["byBob"])
    }

    /// Clients saving on one cached token (their writes grouped) while another node revokes it,
    /// three times over: every request sent after the revocation returned is refused as
    /// revoked, every other is saved or refused the same way (never with the write's own error:
    /// a confirmation of a group's first run, rolled back, and a refusal in its rerun was
    /// answered 421 AUTHENTICATION_REQUIRED naming the credential), and exactly the records of
    /// the saves answered 200 are stored (a refused save wrote nothing).
    @Test func savesRacingARevocationOnAnotherNode() throws {
        let (f, node, otherNode) = try twoNodes(connections: 2)
        let served = try serve(node)
        defer { served.server.stop() }
        let request = try f.request("alice")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: request)
        var stored: [String] = []
        for round in 0..<3 {
            let made = try node.createToken(account: "alice", admin: false)
            expectSaved(send(served.port, path: modifyPath(f), token: made.token, body: creating(["Z/warm\(round)"])))
            stored.append("warm\(round)")
            let revoked = Atomic<Bool>(false)
            /// Each save: its record, whether it was sent after the revocation returned, its reply.
            let outcomes = Mutex<[(name: String, afterRevocation: Bool, reply: String)]>([])
            let clients = (0..<6).map { client in
                startThread {
                    var refusedAfter = 0
                    var index = 0
                    while refusedAfter < 3 && index < 2_000 {
                        let name = "r\(round)-c\(client)-\(index)"
                        index += 1
                        let after = revoked.load(ordering: .acquiring)
                        let reply = send(served.port, path: modifyPath(f), token: made.token, body: creating(["Z/\(name)"]))
                        outcomes.withLock { $0.append((name, after, reply)) }
                        if after { refusedAfter += 1 }
                    }
                }
            }
            // Revoked once the clients have saved a few times (so that the saves run on the cached token).
            while outcomes.withLock({ $0.count }) < 30 { usleep(5_000) }
            try otherNode.revokeCredential(id: made.credential.id)
            revoked.store(true, ordering: .releasing)
            for client in clients { pthread_join(client, nil) }

            let all = outcomes.withLock { $0 }
            for outcome in all where outcome.afterRevocation { expectRevokedRefusal(outcome.reply) }
            let other = all.filter { !$0.reply.hasPrefix("HTTP/1.1 200") && !$0.reply.contains("the token was revoked") }
            #expect(other.isEmpty, "\(other.map { "\($0.name) after: \($0.afterRevocation)\n\($0.reply)" })")
            stored += all.filter { $0.reply.hasPrefix("HTTP/1.1 200") }.map(\.name)
        }
        #expect(try names("Z", f, request) == stored.sorted())
    }

    /// A revoked token's modify spanning two zones, held (by a lock on its second zone) after
    /// its first zone's save added a new field to the schema: another account saving that field
    /// with another type meanwhile is not refused on the revoked request's field (which is
    /// never committed), and the revoked request writes nothing.
    @Test func aRevokedTokensUncommittedFieldRefusesNoOtherAccount() throws {
        let (f, node, otherNode) = try twoNodes(connections: 4)
        let alice = try node.createToken(account: "alice", admin: false)
        let bob = try node.createToken(account: "bob", admin: false)
        let served = try serve(node)
        defer { served.server.stop() }
        let aliceRequest = try f.request("alice"), bobRequest = try f.request("bob")
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z1", atomic: false), ZoneSpec(name: "Z2", atomic: false)], in: aliceRequest)
        _ = try f.cloud.saveZones([ZoneSpec(name: "Z", atomic: false)], in: bobRequest)
        expectSaved(send(served.port, path: modifyPath(f), token: alice.token, body: creating(["Z1/a1"])))
        expectSaved(send(served.port, path: modifyPath(f), token: bob.token, body: creating(["Z/b1"])))
        try otherNode.revokeCredential(id: alice.credential.id)

        let url = try PostgresURL(f.location)
        let locker = try PostgresConnection(url)
        try locker.execute("SET search_path TO \"\(try #require(url.schema))\"")
        try locker.execute("BEGIN")
        #expect(try locker.execute("SELECT zone_id FROM zones WHERE name = 'Z2' FOR UPDATE").rows.count == 1)
        let replies = Mutex<[String: String]>([:])
        let revoked = startThread {
            let reply = send(served.port, path: modifyPath(f), token: alice.token,
                             body: creating(["Z1/a2", "Z2/a3"], fields: #"{"f":{"value":"text","type":"STRING"}}"#))
            replies.withLock { $0["alice"] = reply }
        }
        usleep(500_000)
        let other = startThread {
            let reply = send(served.port, path: modifyPath(f), token: bob.token,
                             body: creating(["Z/b2"], fields: #"{"f":{"value":2,"type":"INT64"}}"#))
            replies.withLock { $0["bob"] = reply }
        }
        usleep(500_000)
        try locker.execute("ROLLBACK")
        pthread_join(revoked, nil)
        pthread_join(other, nil)

        let answered = replies.withLock { $0 }
        expectRevokedRefusal(answered["alice"] ?? "")
        expectSaved(answered["bob"] ?? "")
        #expect(try names("Z1", f, aliceRequest) == ["a1"])
        #expect(try names("Z2", f, aliceRequest) == [])
        #expect(try names("Z", f, bobRequest) == ["b1", "b2"])
    }

    func expectSaved(_ reply: String, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply)", sourceLocation: sourceLocation)
        #expect(reply.split(separator: "\"recordChangeTag\"", omittingEmptySubsequences: false).count - 1 == count, "\(reply)", sourceLocation: sourceLocation)
    }
}
