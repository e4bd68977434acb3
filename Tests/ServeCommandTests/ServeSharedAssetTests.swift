import CloudSyncCore
import TestSupport
import Testing

/// Assets of shared zones through `cloudsync serve` (issue 18 follow-up): a participant
/// downloads the assets of a shared record (the download names the record), and only those.
@Suite("shared-zone assets through serve (end to end)")
struct ServeSharedAssetTests {
    @Test func aParticipantDownloadsTheAssetsOfASharedRecordOnly() throws {
        let fixture = try ServeFixture()
        let bobToken = fixture.server.run(["token", "create", "--account", "bob", "--cloud", fixture.cloud]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
        let (homeA, alice) = fixture.client("alice")
        let (homeB, bob) = fixture.client("bob", token: bobToken)
        func a(_ arguments: [String]) -> ProcessResult { alice.run(["--account", "alice"] + arguments, device: "a") }
        func b(_ arguments: [String]) -> ProcessResult { bob.run(["--account", "bob"] + arguments, device: "b") }

        let photo = homeA.write("photo.txt", "a photo of Rome")
        let diary = homeA.write("diary.txt", "dear diary")
        #expect(a(["zone", "create", "Trips"]).status == 0)
        #expect(a(["zone", "create", "Diary"]).status == 0)
        let saved = a(["--json", "record", "save", "Trip", "rome", "--zone", "Trips", "--field", "photo:ASSETID=@" + photo])
        #expect(saved.status == 0, "\(saved.stderr)")
        let photoSum = try #require(try saved.json()["fields"]?["photo"]?["value"]?["fileChecksum"]?.stringValue)
        let entry = a(["--json", "record", "save", "Entry", "day1", "--zone", "Diary", "--field", "file:ASSETID=@" + diary])
        let diarySum = try #require(try entry.json()["fields"]?["file"]?["value"]?["fileChecksum"]?.stringValue)
        let url = try #require(try a(["--json", "share", "create", "--zone", "Trips"]).json()["url"]?.stringValue)
        #expect(b(["zone", "list"]).status == 0)
        #expect(a(["share", "add", "--zone", "Trips", "bob"]).status == 0)
        #expect(b(["share", "accept", url]).status == 0)
        let listed = try b(["--json", "share", "list"]).json()
        let alicesName = try #require(listed["accepted"]?.arrayValue?.first?["owner"]?["userRecordName"]?.stringValue, "\(listed)")

        let out = homeB.file("assets")
        let got = b(["record", "get", "rome", "--database", "shared", "--zone", "Trips", "--owner", "alice", "--asset-dir", out])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(TemporaryDirectory.readBytes(out + "/" + photoSum) == Array("a photo of Rome".utf8))
        // The unshared zone's record, and so its asset, stays out of reach (3, as for records).
        let secret = b(["record", "get", "day1", "--database", "shared", "--zone", "Diary", "--owner", "alice", "--asset-dir", out])
        #expect(secret.status == 3, "\(secret.stderr)")
        // On the raw endpoint: the shared record's asset, named with its record, comes back ...
        func download(_ query: String) -> ProcessResult {
            ProcessSpawner.run("/usr/bin/curl", [
                "-sS", "-w", "\n%{http_code}", "-H", "Authorization: Bearer " + bobToken, "-H", "X-CloudSync-Shared-Owner: " + alicesName,
                fixture.url + "/database/1/iCloud.com.example.App/development/shared/assets/download?" + query,
            ], environment: ["PATH": "/usr/bin:/bin"])
        }
        let shown = download("fileChecksum=\(photoSum)&size=15&zoneName=Trips&recordName=rome")
        #expect(shown.stdout == "a photo of Rome\n200", "\(shown.stdout) \(shown.stderr)")
        // ... but not the unshared zone's asset by its checksum alone, nor through the shared record.
        for query in ["fileChecksum=\(diarySum)&size=10", "fileChecksum=\(diarySum)&size=10&zoneName=Trips&recordName=rome"] {
            let raw = download(query)
            #expect(raw.status == 0, "\(raw.stderr)")
            #expect(!raw.stdout.contains("dear diary") && !raw.stdout.hasSuffix("\n200"), "\(raw.stdout)")
        }
        #expect(fixture.stop() == 0)
    }
}
