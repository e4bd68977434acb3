@testable import CloudSyncPostgres
import Testing

@Suite("PostgresURL: parsing postgres:// URLs")
struct PostgresURLTests {
    @Test func everyPartIsReadAndPercentDecoded() throws {
        let url = try PostgresURL("postgres://al%40ice:p%3Aw%2F%40rd@db.example.com:6543/my%20db?sslmode=require&connect_timeout=7&application_name=sync%20one")
        #expect(url.user == "al@ice")
        #expect(url.password == "p:w/@rd")
        #expect(url.host == "db.example.com")
        #expect(url.port == 6543)
        #expect(url.database == "my db")
        #expect(url.sslMode == "require")
        #expect(url.connectTimeout == 7)
        #expect(url.applicationName == "sync one")
        #expect(url.endpoint == "db.example.com:6543")
    }

    @Test func theSchemaParameterIsCloudsyncsOwnAndNeverSentToLibpq() throws {
        let url = try PostgresURL("postgres://u:pw@h/d?schema=cloud_2")
        #expect(url.schema == "cloud_2")
        #expect(url.description == "postgres://u:***@h/d?schema=cloud_2")
        #expect(!url.connectionParameters.contains { $0.0 == "schema" || $0.1.contains("cloud_2") })
        for bad in ["", "Cloud", "2cloud", "a-b", "a%22b", String(repeating: "a", count: 64)] {
            #expect(throws: PostgresError.self, "\(bad)") { try PostgresURL("postgres://h/d?schema=" + bad) }
        }
    }

    @Test func postgresqlSchemeAndAnyCaseAreTheSame() throws {
        let a = try PostgresURL("postgresql://u:pw@h/d")
        let b = try PostgresURL("POSTGRES://u:pw@h/d")
        #expect(a == b)
        #expect(a == PostgresURL(user: "u", password: "pw", host: "h", database: "d"))
    }

    @Test func whatIsMissingIsLeftToLibpqDefaults() throws {
        let bare = try PostgresURL("postgres://")
        #expect(bare == PostgresURL())
        #expect(try PostgresURL("postgres://localhost") == PostgresURL(host: "localhost"))
        #expect(try PostgresURL("postgres:///cloud") == PostgresURL(database: "cloud"))
        #expect(try PostgresURL("postgres://bob@/cloud") == PostgresURL(user: "bob", database: "cloud"))
        #expect(try PostgresURL("postgres://bob:@h") == PostgresURL(user: "bob", password: "", host: "h"))
        // Ten seconds to connect unless told: an unreachable server is an error, not a hang.
        #expect(bare.connectionParameters.contains { $0 == ("connect_timeout", "10") })
    }

    @Test func ipv6AddressesAreBracketed() throws {
        let url = try PostgresURL("postgres://u@[::1]:5433/d")
        #expect(url.host == "::1")
        #expect(url.port == 5433)
        #expect(url.endpoint == "[::1]:5433")
        #expect(try PostgresURL("postgres://[fe80::1:2]/d").host == "fe80::1:2")
        #expect(url.description == "postgres://u@[::1]:5433/d")
    }

    @Test func aSocketFolderIsAPercentEncodedPath() throws {
        let url = try PostgresURL("postgres://u@%2Ftmp%2Fpg%20sock:5999/d")
        #expect(url.host == "/tmp/pg sock")
        #expect(url.endpoint == "/tmp/pg sock (port 5999)")
    }

    @Test func aRawAtSignInThePasswordIsTakenUpToTheLastOne() throws {
        let url = try PostgresURL("postgres://u:p@ss@h/d")
        #expect(url.user == "u")
        #expect(url.password == "p@ss")
        #expect(url.host == "h")
    }

    @Test func thePasswordNeverAppearsInTheDescription() throws {
        let url = try PostgresURL("postgres://u:secret@h:1/d?sslmode=disable")
        #expect(url.description == "postgres://u:***@h:1/d?sslmode=disable")
        #expect(!"\(url)".contains("secret"))
    }

    @Test func unicodeAndControlCharactersInsideAPasswordSurviveDecoding() throws {
        let url = try PostgresURL("postgres://u:%C3%A9t%C3%A9%09%F0%9F%94%91@h/d")
        #expect(url.password == "été\t🔑")
    }

    @Test(arguments: [
        ("mysql://u@h/d", "must start with"),
        ("postgres:/h/d", "must start with"),
        ("h/d", "must start with"),
        ("postgres://h:0/d", "port"),
        ("postgres://h:65536/d", "port"),
        ("postgres://h:-1/d", "port"),
        ("postgres://h:abc/d", "port"),
        ("postgres://h:/d", "port"),
        ("postgres://h:99999999999999999999999/d", "port"),
        ("postgres://h:５４３２/d", "port"),
        ("postgres://h:5432:1/d", "brackets"),
        ("postgres://::1/d", "brackets"),
        ("postgres://[::1/d", "']'"),
        ("postgres://[::1]x/d", "after the IPv6"),
        ("postgres://[nothex]/d", "not an IPv6"),
        ("postgres://a,b/d", "several hosts"),
        ("postgres://h/d/e", "'/'"),
        ("postgres://h/d#frag", "fragment"),
        ("postgres://h/d?sslmode=sometimes", "sslmode"),
        ("postgres://h/d?connect_timeout=soon", "connect_timeout"),
        ("postgres://h/d?connect_timeout=86401", "connect_timeout"),
        ("postgres://h/d?sslmode=disable&sslmode=require", "twice"),
        ("postgres://h/d?options=-c%20x", "unknown parameter"),
        ("postgres://h/d?sslmode", "no value"),
        ("postgres://u%zz@h/d", "percent escape"),
        ("postgres://u@h/d%4", "percent escape"),
        ("postgres://u%00@h/d", "NUL"),
        ("postgres://u:pw%00@h/d", "NUL"),
        ("postgres://u%0A@h/d", "control character"),
        ("postgres://u@h/d%FF", "not UTF-8"),
        ("postgres://u@h%2F..%0A/d", "control character"),
        ("postgres://u@ho$t/d", "not a host name"),
        ("postgres://u@h/d\n", "control character"),
        ("postgres://u@h/d\u{0}", "control character"),
        ("postgres://u@h/\u{7F}", "control character"),
        ("postgres://u@h/\td", "control character"),
        ("postgres://u@h /d", "space"),
    ])
    func malformedURLsAreATypedErrorSayingWhy(text: String, reason: String) {
        do {
            let url = try PostgresURL(text)
            Issue.record("accepted \(text.debugDescription) as \(url)")
        } catch {
            guard case .invalidURL(let why) = error else {
                Issue.record("\(error) is not invalidURL")
                return
            }
            #expect(why.contains(reason), "\(text.debugDescription): \(why)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func hugeURLsAreRefusedBeforeAnyWork() throws {
        let huge = "postgres://u@h/" + String(repeating: "d", count: 1 << 20)
        #expect(throws: PostgresError.invalidURL("longer than 4096 bytes")) { try PostgresURL(huge) }
        let hugePassword = "postgres://u:" + String(repeating: "%41", count: 2000) + "@h/d"
        #expect(throws: PostgresError.invalidURL("longer than 4096 bytes")) { try PostgresURL(hugePassword) }
        // Just under the limit is fine.
        let long = "postgres://u@h/" + String(repeating: "d", count: 4096 - 15)
        #expect(try PostgresURL(long).database?.count == 4081)
    }
}
