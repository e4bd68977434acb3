import CloudSyncCore
import CloudSyncOTP
import Testing

/// Issue 15: URI lists with comments, batch_size 0, URI fragments, 2FAS names, Bitwarden and
/// Proton Authenticator exports, and what an unrecognised file looks like.
@Suite("OTP import formats (issue 15)")
struct ImportFormatsTests {
    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    @Test func aURIListMayStartWithComments() throws {
        let text = "# exported by 2fa\n# on my laptop\n\notpauth://totp/GitHub:alice?secret=\(Self.secret)&issuer=GitHub\n"
        #expect(ImportReader.detect(Array(text.utf8)) == .uris)
        #expect(try ImportReader.read(Array(text.utf8)).tokens.map(\.name) == ["GitHub:alice"])
    }

    @Test func aFragmentIsNotPartOfTheLastParameter() throws {
        let token = try OTPAuthURI.parse("otpauth://totp/GitHub:alice?secret=\(Self.secret)&issuer=GitHub#work")
        #expect(token.issuer == "GitHub")
        let digits = try OTPAuthURI.parse("otpauth://totp/X:y?secret=\(Self.secret)&digits=8#frag")
        #expect(digits.digits == 8)
    }

    @Test func batchSizeZeroIsOneBatch() throws {
        let uri = MigrationTests.uri([MigrationTests.Entry(secret: MigrationTests.rfc, name: "alice", issuer: "Google")], size: 0)
        let contents = URIListImport.read(uri)
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        #expect(contents.tokens.map(\.name) == ["Google:alice"])
    }

    /// A batch size of up to 2^31 (the fuzzer's find: `URIListImport` listed every missing batch
    /// and asked for 16 GB) is refused on its line; 1,000 QR codes are still read.
    @Test func aHostileBatchSizeIsRefusedOnItsLine() throws {
        let entry = MigrationTests.Entry(secret: MigrationTests.rfc, name: "alice", issuer: "Google")
        let text = "otpauth://totp/GitHub:alice?secret=\(Self.secret)&issuer=GitHub\n"
            + MigrationTests.uri([entry], size: Int64(Int32.max), index: 3) + "\n"
        let contents = URIListImport.read(text)
        #expect(contents.tokens.map(\.name) == ["GitHub:alice"])
        #expect(contents.problems.count == 1)
        #expect(contents.problems.first?.entry == "line 2")
        #expect(contents.problems.first?.reason.contains("one of 2147483647 QR codes; at most 1000") == true,
                "\(contents.problems)")
        let largest = URIListImport.read(MigrationTests.uri([entry], size: 1000, index: 999))
        #expect(largest.tokens.map(\.name) == ["Google:alice"])
        #expect(largest.problems.first?.reason.contains("batch 1, 2, 3") == true, "the other 999 are missing")
    }

    @Test func twoFASServiceNameIsTheIssuer() throws {
        let json = """
            {"schemaVersion": 4, "services": [
              {"name": "GitHub", "secret": "\(Self.secret)", "otp": {"account": "alice", "issuer": "github.com", "tokenType": "TOTP"}},
              {"name": "", "secret": "JBSWY3DPEHPK3PXPJBSWY3DP", "otp": {"account": "bob", "issuer": "Fallback", "tokenType": "TOTP"}}
            ]}
            """
        let contents = try ImportReader.read(Array(json.utf8))
        #expect(contents.tokens.map(\.issuer) == ["GitHub", "Fallback"])
    }

    @Test func bitwardenExport() throws {
        // Bitwarden's unencrypted JSON export: login items carry `totp` (a URI or a bare secret).
        let json = """
            {"encrypted": false, "folders": [], "items": [
              {"id": "1", "type": 1, "name": "GitHub", "login": {"username": "alice", "password": "x",
               "totp": "otpauth://totp/GitHub:alice?secret=\(Self.secret)&issuer=GitHub"}},
              {"id": "2", "type": 1, "name": "Mail", "login": {"username": "bob@mail", "totp": "JBSWY3DPEHPK3PXPJBSWY3DP"}},
              {"id": "3", "type": 1, "name": "No OTP", "login": {"username": "carol", "totp": null}},
              {"id": "4", "type": 2, "name": "A note", "notes": "text"}
            ]}
            """
        #expect(ImportReader.detect(Array(json.utf8)) == .bitwarden)
        let contents = try ImportReader.read(Array(json.utf8))
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        #expect(contents.tokens.map(\.name) == ["GitHub:alice", "Mail:bob@mail"])
        let encrypted = #"{"encrypted": true, "items": []}"#
        #expect(throws: OTPError.self) { try ImportReader.read(Array(encrypted.utf8)) }
    }

    @Test func protonAuthenticatorExport() throws {
        let json = """
            {"version": 1, "entries": [
              {"id": "a1", "content": {"uri": "otpauth://totp/Proton:alice?secret=\(Self.secret)&issuer=Proton",
               "entry_type": "Totp", "name": "Proton"}, "note": null},
              {"id": "a2", "content": {"uri": "steam://JBSWY3DPEHPK3PXPJBSWY3DP", "entry_type": "Steam", "name": "Steam"},
               "note": "games"}
            ]}
            """
        #expect(ImportReader.detect(Array(json.utf8)) == .proton)
        let contents = try ImportReader.read(Array(json.utf8))
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        #expect(contents.tokens.map(\.name) == ["Proton:alice", "Steam"])
        #expect(contents.tokens.last?.kind == .steam)
    }

    @Test func unrecognisedFilesSayWhatTheyLookLike() {
        func reason(_ bytes: [UInt8]) -> String {
            do { _ = try ImportReader.read(bytes); return "" } catch { return error.description }
        }
        #expect(reason(Array("<?xml version=\"1.0\"?><map/>".utf8)).contains("XML"))
        #expect(!reason(Array("<?xml version=\"1.0\"?><map/>".utf8)).contains("andOTP backups are not"))
        #expect(reason(Array("SQLite format 3\0rest".utf8)).contains("SQLite"))
        #expect(reason([0x8f, 0xff, 0x00, 0x13]).contains("encrypted"))
        #expect(reason(Array(#"{"hello": 1}"#.utf8)).contains("JSON of a shape"))
    }
}
