import CloudSyncCore
import TestSupport
import Testing

/// Issue 15 through the built binary: Proton Authenticator and commented URI lists import,
/// and an XML file is named as XML.
@Suite("otp import formats (end to end)")
struct OTPImportFormatsEndToEndTests {
    let home = TemporaryDirectory("otp-formats")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    @Test func protonExportAndCommentedURIList() throws {
        let proton = home.write("proton.json", """
            {"version": 1, "entries": [{"id": "a1", "content": {"uri":
              "otpauth://totp/Proton:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Proton#x",
              "entry_type": "Totp", "name": "Proton"}, "note": null}]}
            """)
        let imported = cli.run(["otp", "import", proton])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Proton Authenticator export"))
        let list = home.write("list.txt", "# my tokens\notpauth://totp/GitHub:bob?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=GitHub\n")
        #expect(cli.run(["otp", "import", list]).status == 0)
        #expect(try cli.tokenNames("laptop") == ["GitHub:bob", "Proton:alice"])

        let xml = home.write("backup.xml", "<?xml version='1.0'?><map><string name='secret'>x</string></map>")
        let refused = cli.run(["otp", "import", xml])
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(refused.stderr.contains("looks like an XML"))
    }
}
