import CloudSyncCore
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A client written with nothing but Python's standard library checks the server against
/// Apple's documented dictionaries: saves without `type` of each field type (DOUBLE from an
/// integer, TIMESTAMP from epoch milliseconds, BYTES from base64, an asset dictionary from the
/// upload step, a reference, a location), an upload token without `recordName`, and that every
/// error reply (top-level or per record) carries one of the 14 documented `serverErrorCode`
/// values with its documented HTTP status and no null members.
@Suite struct PythonWireClientTests {
    static let script = #"""
import json, sys, urllib.request, urllib.error, urllib.parse
root = sys.argv[1]
base = root + "/database/1/iCloud.com.example.Tests/development/"
DOCUMENTED = {"ACCESS_DENIED": 403, "ATOMIC_ERROR": 400, "AUTHENTICATION_FAILED": 401, "AUTHENTICATION_REQUIRED": 421,
              "BAD_REQUEST": 400, "CONFLICT": 409, "EXISTS": 409, "INTERNAL_ERROR": 500, "NOT_FOUND": 404,
              "QUOTA_EXCEEDED": 413, "THROTTLED": 429, "TRY_AGAIN_LATER": 503, "VALIDATING_REFERENCE_ERROR": 412,
              "ZONE_NOT_FOUND": 404}
checked = []
def nulls(value, path="$"):
    if value is None: return [path]
    if isinstance(value, dict): return [p for k, v in value.items() for p in nulls(v, path + "." + k)]
    if isinstance(value, list): return [p for i, v in enumerate(value) for p in nulls(v, "%s[%d]" % (path, i))]
    return []
def check_error(error, status):
    code = error.get("serverErrorCode")
    assert code in DOCUMENTED, ("undocumented serverErrorCode", error)
    assert status == 200 or DOCUMENTED[code] == status, ("status", status, error)
    assert not nulls(error), ("null members", error)
    assert isinstance(error.get("reason"), str), error
    checked.append(code)
def send(url, data, content_type, token):
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": content_type, "Authorization": "Bearer " + token})
    try:
        with urllib.request.urlopen(request) as reply:
            status, body = reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        status, body = error.code, json.load(error)
        check_error(body, status)
    for entry in body.get("records", []) + body.get("zones", []):
        if "serverErrorCode" in entry: check_error(entry, status)
    return status, body
def post(path, body, token="token-alice", scope="private"):
    return send(base + scope + "/" + path, json.dumps(body).encode(), "application/json", token)
def save(*records):
    return post("records/modify", {"operations": [{"operationType": "forceReplace", "record": r} for r in records]})

# Upload an asset as Apple documents: a token (no recordName: the server names one), then the bytes.
status, reply = post("assets/upload", {"tokens": [{"recordType": "Sample", "fieldName": "file"}]})
assert status == 200 and not nulls(reply), reply
token = reply["tokens"][0]
assert isinstance(token["recordName"], str) and len(token["recordName"]) == 36, token
url = token["url"] if "://" in token["url"] else root + token["url"]
status, uploaded = send(url, b"hello", "application/octet-stream", "token-alice")
asset = uploaded["singleFile"]
assert status == 200 and {"fileChecksum", "size", "receipt"} <= set(asset), uploaded

# The schema learns each field's type from one typed save.
status, reply = save({"recordName": "first", "recordType": "Sample", "fields": {
    "ratio": {"value": 1.5, "type": "DOUBLE"}, "when": {"value": 1, "type": "TIMESTAMP"},
    "blob": {"value": "AA==", "type": "BYTES"}, "file": {"value": asset, "type": "ASSETID"},
    "link": {"value": {"recordName": "x", "action": "NONE"}, "type": "REFERENCE"},
    "place": {"value": {"latitude": 1, "longitude": 2}, "type": "LOCATION"}}})
assert status == 200 and "serverErrorCode" not in reply["records"][0], reply
# Then every value goes without a type, as Apple allows.
status, reply = save({"recordName": "second", "recordType": "Sample", "fields": {
    "ratio": {"value": 2}, "when": {"value": 1700000000000}, "blob": {"value": "aGVsbG8="}, "file": {"value": asset},
    "link": {"value": {"recordName": "first", "action": "NONE"}}, "place": {"value": {"latitude": 48.85, "longitude": 2.35}}}})
assert status == 200, reply
record = reply["records"][0]
assert "serverErrorCode" not in record, record
types = {name: field["type"] for name, field in record["fields"].items()}
assert types == {"ratio": "DOUBLE", "when": "TIMESTAMP", "blob": "BYTES", "file": "ASSETID", "link": "REFERENCE",
                 "place": "LOCATION"}, types
assert record["fields"]["ratio"]["value"] == 2 and record["fields"]["when"]["value"] == 1700000000000, record
assert record["fields"]["file"]["value"]["fileChecksum"] == asset["fileChecksum"], record
# Fields no schema knows are typed by their shape.
status, reply = save({"recordName": "shapes", "recordType": "Fresh", "fields": {
    "file": {"value": asset}, "ref": {"value": {"recordName": "first"}}, "loc": {"value": {"latitude": 1, "longitude": 2}},
    "tags": {"value": ["a", "b"]}}})
types = {name: field["type"] for name, field in reply["records"][0]["fields"].items()}
assert types == {"file": "ASSETID", "ref": "REFERENCE", "loc": "LOCATION", "tags": "STRING_LIST"}, reply
# A value that cannot be typed fails its record, not the request.
status, reply = save({"recordName": "ok", "recordType": "Sample", "fields": {"ratio": {"value": 3}}},
                     {"recordName": "bad", "recordType": "Sample", "fields": {"odd": {"value": {"color": "red"}}}})
assert status == 200, reply
by_name = {r["recordName"]: r for r in reply["records"]}
assert "recordChangeTag" in by_name["ok"] and by_name["bad"]["serverErrorCode"] == "BAD_REQUEST", reply

# Error replies: every one was checked by send(); make sure there were some of each kind.
post("records/modify", {"operations": [{"operationType": "create", "record": {"recordName": "r%d" % i, "recordType": "T"}}
                                       for i in range(201)]})
post("records/modify", {"operations": "not a list"})
post("records/changes", {"zoneID": {"zoneName": "Nope"}})
post("records/query", {"query": {"recordType": "Sample"}}, token="nobody")
post("records/lookup", {"records": [{"recordName": "missing"}]})
post("records/modify", {"operations": [{"operationType": "update", "record": {"recordName": "first", "recordType": "Sample",
                                                                             "recordChangeTag": "stale", "fields": {}}}]})
post("zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Z"}}}]}, scope="public")
assert {"BAD_REQUEST", "ZONE_NOT_FOUND", "AUTHENTICATION_FAILED", "NOT_FOUND", "CONFLICT"} <= set(checked), checked
print("ok")
"""#

    @Test func pythonClientSavesUntypedValuesAndDecodesEveryError() throws {
        try PythonClientTests.expectClientPasses(Self.script)
    }
}
