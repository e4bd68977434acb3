import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebClient
import CloudSyncWebProtocol
import CloudSyncWebServer
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A client written with nothing but Python's standard library does the asset round trip as
/// Apple documents it, through the real server and credential check: `assets/upload` gives an
/// absolute URL, the file is POSTed there with no credential at all, the record saved with the
/// upload's receipt comes back from lookup, query and changes with a `downloadURL` holding
/// `${f}`, and that URL, its `${f}` filled in, gives the bytes without a credential. A grant
/// that is tampered with, for another asset or used as another account is refused, and
/// `assets/data` with neither credential nor grant is 401.
@Suite struct PythonAssetClientTests {
    static let script = #"""
import json, sys, urllib.request, urllib.error
base, alice, bob = sys.argv[1], sys.argv[2], sys.argv[3]
db = base + "/database/1/iCloud.com.example.Tests/development/private/"
\#(PythonHTTPClient.call)
def upload(token, content):
    status, reply = call(db + "assets/upload", {"tokens": [{"recordType": "Photo", "fieldName": "image"}]}, token)
    assert status == 200, reply
    url = reply["tokens"][0]["url"]
    assert url.startswith("http://127.0.0.1:") and "/assets/data?" in url, url
    status, reply = call(url, content)
    assert status == 200, reply
    return url, reply["singleFile"]
url, single = upload(alice, b"alice's photo")
status, reply = call(db + "zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Art"}}}]}, alice)
assert status == 200, reply
zone = {"zoneName": "Art"}
status, reply = call(db + "records/modify", {"zoneID": zone, "operations": [{"operationType": "create", "record": {
    "recordName": "p1", "recordType": "Photo", "fields": {"image": {"value": single, "type": "ASSETID"}}}}]}, alice)
assert status == 200 and "serverErrorCode" not in reply["records"][0], reply
status, reply = call(db + "records/lookup", {"zoneID": zone, "records": [{"recordName": "p1"}]}, alice)
download = reply["records"][0]["fields"]["image"]["value"]["downloadURL"]
assert download.startswith("http://127.0.0.1:") and "${f}" in download, download
for path, body in [("records/query", {"zoneID": zone, "query": {"recordType": "Photo"}}), ("records/changes", {"zoneID": zone})]:
    status, reply = call(db + path, body, alice)
    assert status == 200 and "${f}" in reply["records"][0]["fields"]["image"]["value"]["downloadURL"], (path, reply)
status, content = call(download.replace("${f}", "photo.jpg"), raw=True)
assert status == 200 and content == b"alice's photo", (status, content)
# A tampered grant, another asset's checksum, another account: refused, nothing revealed.
head, grant = download.split("ckAssetGrant=")
status, reply = call(head + "ckAssetGrant=" + grant[:-2] + ("AA" if grant[-2:] != "AA" else "BB"))
assert status == 401 and reply["serverErrorCode"] == "AUTHENTICATION_FAILED", reply
_, bob_file = upload(bob, b"bob's secret")
status, reply = call(download.replace(single["fileChecksum"], bob_file["fileChecksum"]).replace("size=13", "size=12"))
assert status == 401 and reply["serverErrorCode"] == "AUTHENTICATION_FAILED" and "bob" not in json.dumps(reply), reply
status, reply = call(download, headers={"X-CloudSync-Account": "bob"})
assert status in (401, 403), reply
# An upload grant is not a download grant, and assets/data needs a credential or a grant.
status, reply = call(url.replace("assets/data", "assets/download") + "&fileChecksum=" + single["fileChecksum"] + "&size=13")
assert status == 401, reply
status, reply = call(db + "assets/data", b"no credential")
assert status == 401 and reply["serverErrorCode"] == "AUTHENTICATION_FAILED", reply
print("ok")
"""#

    @Test func assetRoundTripWithAbsoluteURLsAndNoCredential() throws {
        let directory = TemporaryDirectory("python-assets")
        let cloud = try SQLiteCloud(path: directory.file("cloud.sqlite"))
        let alice = try cloud.createToken(account: "alice").token, bob = try cloud.createToken(account: "bob").token
        let grants = AssetGrants(service: cloud)
        let handler = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ throws(CloudError) in cloud }, assetGrants: grants),
                                             authenticator: AssetGrantAuthenticator(base: StoredCredentialAuthenticator(service: cloud),
                                                                                    grants: grants))
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0), handler: handler)
        try server.start()
        defer { server.stop(grace: .seconds(1)) }
        let base = "http://127.0.0.1:\(try #require(server.boundPort))"
        let result = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", Self.script, base, alice, bob],
                                        environment: ["PATH": String(cString: getenv("PATH"))])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok\n")
    }
}
