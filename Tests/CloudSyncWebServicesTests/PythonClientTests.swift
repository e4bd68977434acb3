import CloudSyncCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A client written with nothing but Python's standard library speaks the documented
/// dictionaries to the handler on loopback: `zones/modify`, `records/modify` (a create without
/// `recordName`, fields without `type`), `records/query` with `filterBy`/`sortBy`, and a stale
/// `recordChangeTag` answered per record with `serverErrorCode: CONFLICT`.
@Suite struct PythonClientTests {
    static let script = #"""
import json, sys, urllib.request, urllib.error
base = sys.argv[1] + "/database/1/iCloud.com.example.Tests/development/private/"
def post(path, body, token="token-alice"):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
status, reply = post("zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Art"}}}]})
assert status == 200 and reply["zones"][0]["zoneID"]["zoneName"] == "Art", reply
zone = {"zoneName": "Art"}
status, reply = post("records/modify", {"zoneID": zone, "operations": [
    {"operationType": "create", "record": {"recordType": "Artist", "fields": {"firstName": {"value": "Mei"}, "lastName": {"value": "Chen"}}}},
    {"operationType": "create", "record": {"recordName": "ada", "recordType": "Artist",
                                           "fields": {"firstName": {"value": "Ada"}, "lastName": {"value": "Lovelace"}}}}]})
assert status == 200 and len(reply["records"]) == 2 and all("recordChangeTag" in r for r in reply["records"]), reply
status, reply = post("records/query", {"zoneID": zone, "query": {"recordType": "Artist",
    "filterBy": [{"comparator": "EQUALS", "fieldName": "lastName", "fieldValue": {"value": "Chen"}}],
    "sortBy": [{"fieldName": "firstName", "ascending": True}]}})
assert status == 200 and [r["fields"]["firstName"]["value"] for r in reply["records"]] == ["Mei"], reply
status, reply = post("records/modify", {"zoneID": zone, "operations": [
    {"operationType": "update", "record": {"recordName": "ada", "recordType": "Artist", "recordChangeTag": "stale", "fields": {}}}]})
assert status == 200 and reply["records"][0]["serverErrorCode"] == "CONFLICT" and reply["records"][0]["reason"], reply
status, reply = post("records/query", {"query": {"recordType": "Artist"}}, token="nobody")
assert status == 401 and reply["serverErrorCode"] == "AUTHENTICATION_FAILED" and reply["uuid"], reply
status, reply = post("records/modify", {"operations": "not a list"})
assert status == 400 and reply["serverErrorCode"] == "BAD_REQUEST", reply
print("ok")
"""#

    @Test func pythonStandardLibraryClient() throws {
        try Self.expectClientPasses(Self.script)
    }

    /// Runs a Python client script (`python3 -c SCRIPT BASE_URL`) against a fresh loopback
    /// server; it must print `ok` and exit 0.
    static func expectClientPasses(_ script: String) throws {
        let f = try WebServicesFixture()
        let (_, server) = try f.client()
        let result = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", script, server.baseURL],
                                      environment: ["PATH": String(cString: getenv("PATH"))])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok\n")
    }
}
