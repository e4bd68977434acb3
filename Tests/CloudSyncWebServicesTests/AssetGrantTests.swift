import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer
import TestSupport
import Testing

/// Asset URLs (issue 26, "Assets by URL"): absolute, signed with the store's secret, bound to
/// their request and asset, short-lived; a bad grant is refused before the body is read.
@Suite("Asset grants")
struct AssetGrantTests {
    static let now: Int64 = 1_800_000_000_000
    static let download = "/database/1/iCloud.c/development/private/assets/download"
    static let upload = "/database/1/iCloud.c/development/private/assets/data"

    static func grant(_ kind: AssetGrant.Kind = .download, account: String = "alice", checksum: String = "aa", size: Int64 = 3) -> AssetGrant {
        AssetGrant(kind: kind, container: "iCloud.c", environment: "development", scope: "private", account: account,
                   checksum: kind == .download ? checksum : "", size: kind == .download ? size : -1, expires: 0)
    }

    @Test func aGrantWorksForItsRequestOnlyAndUntilItEnds() throws {
        let clock = Clock(now: Self.now)
        let grants = AssetGrants(secret: { "s3cret" }, clock: { clock.now })
        let token = try grants.sign(Self.grant(), lifetime: AssetGrants.downloadLifetime)
        func check(_ path: String, _ query: [(String, String)]) throws -> AssetGrantRefusal? {
            if case .failure(let refusal) = try grants.check(path: path, query: query) { return refusal }
            return nil
        }
        let asked = [("fileChecksum", "aa"), ("size", "3")]
        #expect(try check(Self.download, asked + [(AssetGrants.parameter, token)]) == nil)
        #expect(try check(Self.download + "/photo.jpg", asked + [(AssetGrants.parameter, token)]) == nil)
        // Another asset, another database, another endpoint: never this grant's.
        #expect(try check(Self.download, [("fileChecksum", "bb"), ("size", "3"), (AssetGrants.parameter, token)]) == .notThisRequest)
        #expect(try check(Self.download, [("fileChecksum", "aa"), ("size", "4"), (AssetGrants.parameter, token)]) == .notThisRequest)
        #expect(try check(Self.download.replacingOccurrences("private", "public"), asked + [(AssetGrants.parameter, token)])
                == .notThisRequest)
        #expect(try check(Self.upload, [(AssetGrants.parameter, token)]) == .notThisRequest)
        // Tampered (the account changed in the payload), forged (another secret), malformed.
        var other = Self.grant(account: "bob")
        other.expires = Self.now + 1000
        let bobPayload = other.token(key: Array("s3cret".utf8)).split(separator: ".")[0]
        let tampered = bobPayload + "." + token.split(separator: ".")[1]
        #expect(try check(Self.download, asked + [(AssetGrants.parameter, String(tampered))]) == .badSignature)
        let forged = AssetGrants(secret: { "guess" }, clock: { clock.now })
        #expect(try check(Self.download, asked + [(AssetGrants.parameter, try forged.sign(Self.grant(), lifetime: 1000))]) == .badSignature)
        #expect(try check(Self.download, asked + [(AssetGrants.parameter, "nonsense")]) == .malformed)
        // An hour later the download grant is over; an upload grant lasts 15 minutes.
        clock.now = Self.now + AssetGrants.downloadLifetime + 1
        #expect(try check(Self.download, asked + [(AssetGrants.parameter, token)]) == .expired)
        let uploadToken = try grants.sign(Self.grant(.upload), lifetime: AssetGrants.uploadLifetime)
        #expect(try check(Self.upload, [(AssetGrants.parameter, uploadToken)]) == nil)
        clock.now += 15 * 60 * 1000 + 1
        #expect(try check(Self.upload, [(AssetGrants.parameter, uploadToken)]) == .expired)
    }

    /// The secret is the store's: a second node over the same store accepts the first's URLs;
    /// another store does not. A grant counts as a credential in the pre-check, as strictly as a
    /// token; a request to assets/data with neither is still refused.
    @Test func everyNodeOverOneStoreAcceptsTheOthersGrants() throws {
        let directory = TemporaryDirectory("grants")
        let first = try SQLiteCloud(path: directory.file("cloud.sqlite"))
        let second = try SQLiteCloud(path: directory.file("cloud.sqlite"))
        let elsewhere = try SQLiteCloud(path: directory.file("other.sqlite"))
        let token = try AssetGrants(service: first).sign(Self.grant(.upload), lifetime: AssetGrants.uploadLifetime)
        let query = [(AssetGrants.parameter, token)]
        func precheck(_ service: StorageBackedCloud, _ query: [(String, String)]) -> CredentialRefusal? {
            AssetGrantAuthenticator(base: StoredCredentialAuthenticator(service: service), grants: AssetGrants(service: service))
                .precheck(path: Self.upload, query: query, headers: [])
        }
        #expect(precheck(second, query) == nil)
        #expect(precheck(elsewhere, query) == .assetGrant(.badSignature))
        #expect(precheck(second, []) == .missing)
        #expect(try first.assetGrantSecret() == (try second.assetGrantSecret()))
        let caller = try AssetGrantAuthenticator(base: StoredCredentialAuthenticator(service: second), grants: AssetGrants(service: second))
            .caller(method: "POST", path: Self.upload, query: query, headers: [], body: [1])
        #expect(caller == Caller(account: "alice", standing: .credential(isAdmin: false)))
    }

    /// `assets/upload` answers an absolute URL: from the request's Host, or the public URL.
    @Test func uploadURLsAreAbsolute() throws {
        let f = try WebServicesFixture()
        let body = #"{"tokens":[{"recordType":"Photo","fieldName":"image"}]}"#
        let plain = f.call("assets/upload", body, headers: [("Host", "cloud.example:8080")])
        let url = try #require(plain.json["tokens"]?.arrayValue?.first?["url"]?.stringValue)
        #expect(url == "http://cloud.example:8080/database/1/\(f.container)/development/private/assets/data")
        let grants = AssetGrants(secret: { "k" }, publicURL: "https://sync.example/", scheme: "http")
        let handler = WebServicesHandler(cloudFor: { _ throws(CloudError) in f.cloud }, assetGrants: grants)
        let signed = handler.handle(WebServicesRequest(method: "POST", path: "/database/1/\(f.container)/development/private/assets/upload",
                                                       headers: [("Host", "ignored")], body: Array(body.utf8), account: "alice"))
        let json = try JSONValue.parse(bytes: signed.body)
        let signedURL = try #require(json["tokens"]?.arrayValue?.first?["url"]?.stringValue)
        #expect(signedURL.hasPrefix("https://sync.example/database/1/\(f.container)/development/private/assets/data?ckAssetGrant="))
    }

    /// In the shared database a downloadURL names the record and its owner, and gives a
    /// participant the bytes with no credential; changed to another record it is refused.
    @Test func aSharedRecordsDownloadURLWorksWithoutACredential() throws {
        let f = try WebServicesFixture()
        let grants = AssetGrants(secret: { "k" })
        let handler = WebServicesHandler(cloudFor: { _ throws(CloudError) in f.cloud }, assetGrants: grants)
        let authenticator = AssetGrantAuthenticator(base: StoredCredentialAuthenticator(service: f.cloud), grants: grants)
        func call(_ scope: String, _ tail: String, _ body: String, account: String) throws -> JSONValue {
            let response = handler.handle(WebServicesRequest(method: "POST", path: "/database/1/\(f.container)/development/\(scope)/\(tail)",
                                                             headers: [("Host", "h.example")], body: Array(body.utf8), account: account))
            #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            return try JSONValue.parse(bytes: response.body)
        }
        _ = try call("private", "zones/modify", #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Trips"}}}]}"#,
                     account: "alice")
        let file = try #require(try call("private", "assets/data", "trip photo", account: "alice")["singleFile"]?.serialized())
        _ = try call("private", "records/modify", #"{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":"#
                     + #"{"recordName":"t1","recordType":"Trip","fields":{"photo":{"type":"ASSETID","value":"# + file + "}}}}]}",
                     account: "alice")
        let alice = try f.request(f.cloud, "alice"), bob = try f.request(f.cloud, "bob")
        let share = try f.cloud.saveShare(zoneName: "Trips", title: nil, publicPermission: nil, in: alice)
        _ = try f.cloud.addParticipants(["bob"], permission: .readOnly, zoneName: "Trips", in: alice)
        _ = try f.cloud.acceptShare(url: share.url, in: bob)
        let lookup = try call("shared", "records/lookup", #"{"zoneID":{"zoneName":"Trips","ownerRecordName":""#
                              + alice.userRecordName + #""},"records":[{"recordName":"t1"}]}"#, account: "bob")
        let url = try #require(lookup["records"]?.arrayValue?.first?["fields"]?["photo"]?["value"]?["downloadURL"]?.stringValue)
        #expect(url.hasPrefix("http://h.example/database/1/\(f.container)/development/shared/assets/download/${f}?"))
        #expect(url.contains("recordName=t1") && url.contains("ownerRecordName=" + alice.userRecordName))
        func get(_ url: String) throws -> WebServicesResponse? {
            let (path, query) = Self.split(url.replacingOccurrences("${f}", "trip.jpg"))
            guard let caller = try authenticator.caller(method: "GET", path: path, query: query, headers: [], body: []) else { return nil }
            return handler.handle(WebServicesRequest(method: "GET", path: path, query: query, caller: caller))
        }
        let fetched = try #require(try get(url))
        #expect(fetched.status == 200 && fetched.body == Array("trip photo".utf8))
        #expect(try get(url.replacingOccurrences("recordName=t1", "recordName=t2")) == nil)
    }

    /// `HTTPCloud` reads the changes with their downloadURLs but keeps no URL (a grant that
    /// expires) in the fields text it hands the device cache.
    @Test func theClientKeepsNoDownloadURLInTheCacheText() throws {
        let f = try WebServicesFixture()
        let (cloud, _) = try f.client()
        let alice = try f.request(cloud, "alice")
        _ = try cloud.saveZones([ZoneSpec(name: "Trips")], in: alice)
        let file = try #require(try cloud.uploadAssets([Array("photo".utf8)], in: alice).first)
        _ = f.call("records/modify", #"{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":"#
                   + #"{"recordName":"t1","recordType":"Trip","fields":{"photo":{"type":"ASSETID","value":{"fileChecksum":""#
                   + file.checksum + #"","size":5}}}}}]}"#)
        let changes = try cloud.fetchZoneChanges("Trips", since: nil, limit: 100, in: alice)
        #expect(changes.changed.first?.fields["photo"] == .asset(file))
        #expect(!changes.encodedFields.contains { $0?.contains("downloadURL") == true }, "\(changes.encodedFields)")
    }

    /// A URL's path and its decoded query pairs.
    static func split(_ url: String) -> (String, [(String, String)]) {
        let afterScheme = url.split(separator: "://", maxSplits: 1)[1]
        let parts = afterScheme.drop { $0 != "/" }.split(separator: "?", maxSplits: 1)
        let query: [(String, String)] = parts.count > 1 ? parts[1].split(separator: "&").map { pair -> (String, String) in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(kv[0]), decoded(String(kv.count > 1 ? kv[1] : "")))
        } : []
        return (String(parts[0]), query)
    }

    static func decoded(_ text: String) -> String {
        var out: [UInt8] = [], bytes = Array(text.utf8), i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let byte = UInt8(String(decoding: bytes[i + 1...i + 2], as: UTF8.self), radix: 16) {
                out.append(byte); i += 3
            } else {
                out.append(bytes[i]); i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    final class Clock: @unchecked Sendable {
        var now: Int64
        init(now: Int64) { self.now = now }
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
