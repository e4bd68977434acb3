import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Asset URLs through the binary (issue 26): `serve --public-url` names the URLs it hands out,
/// and every node over one PostgreSQL accepts the grants another node signed (the secret is the
/// store's), with no credential sent.
@Suite("cloudsync serve: asset URLs (end to end)")
struct ServeAssetURLTests {
    static let script = #"""
import json, sys, urllib.request, urllib.error
a, b, token = sys.argv[1], sys.argv[2], sys.argv[3]
tail = "/database/1/iCloud.com.example.Tests/development/private/"
\#(PythonHTTPClient.call)
status, reply = call(a + tail + "assets/upload", {"tokens": [{"recordType": "Photo", "fieldName": "image"}]}, token)
url = reply["tokens"][0]["url"]
assert url.startswith("http://public.example:9" + tail + "assets/data?ckAssetGrant="), url
status, reply = call(url.replace("http://public.example:9", b), b"through node B")
assert status == 200, reply
single = reply["singleFile"]
status, reply = call(a + tail + "records/modify", {"operations": [{"operationType": "create", "record": {
    "recordName": "p1", "recordType": "Photo", "fields": {"image": {"value": single}}}}]}, token)
assert status == 200 and "serverErrorCode" not in reply["records"][0], reply
status, reply = call(b + tail + "records/lookup", {"records": [{"recordName": "p1"}]}, token)
download = reply["records"][0]["fields"]["image"]["value"]["downloadURL"]
assert download.startswith(b + tail + "assets/download/${f}?"), download
status, content = call(download.replace("${f}", "photo.jpg").replace(b, a), raw=True)
assert status == 200 and content == b"through node B", (status, content)
print("ok")
"""#

    @Test func everyNodeAcceptsTheOthersURLsAndPublicURLNamesThem() throws {
        let cloud = try ServeStatelessNodesTests.freshPostgresCloud()
        let nodeA = try ServeFixture(serveArguments: ["--public-url", "http://public.example:9/"], cloud: cloud)
        let nodeB = try ServeFixture(cloud: cloud, token: nodeA.token)
        let result = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", Self.script, nodeA.url, nodeB.url, nodeA.token],
                                        environment: ["PATH": String(cString: getenv("PATH"))])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok\n")
        #expect(nodeA.stop() == 0)
        #expect(nodeB.stop() == 0)
    }

    @Test func aPublicURLMustBeHTTP() {
        let home = TemporaryDirectory("serve-public-url")
        let result = BinaryRunner(home: home.path).run(["serve", "--public-url", "ftp://example", "--listen", "127.0.0.1:0"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--public-url"))
    }
}
