import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Server-to-server keys: a P-256 key made and used by Python's `cryptography` package, signing
/// requests as Apple documents (`date:base64(sha256(body)):path`), sent with urllib.
@Suite("cloudsync serve: server-to-server keys (end to end)")
struct ServerKeyTests {
    static let makeKey = #"""
import sys
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives import serialization
key = ec.generate_private_key(ec.SECP256R1())
open(sys.argv[1] + "/private.pem", "wb").write(key.private_bytes(serialization.Encoding.PEM,
    serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
open(sys.argv[1] + "/public.pem", "wb").write(key.public_key().public_bytes(serialization.Encoding.PEM,
    serialization.PublicFormat.SubjectPublicKeyInfo))
"""#

    static let signedClient = #"""
import base64, datetime, hashlib, json, sys, urllib.request, urllib.error
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
url, folder, key_id = sys.argv[1], sys.argv[2], sys.argv[3]
key = serialization.load_pem_private_key(open(folder + "/private.pem", "rb").read(), password=None)
path = "/database/1/iCloud.com.example.App/development/private/zones/modify"
def signed_headers(body, skew=0):
    date = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=skew)).strftime("%Y-%m-%dT%H:%M:%SZ")
    digest = base64.b64encode(hashlib.sha256(body).digest()).decode()
    signature = base64.b64encode(key.sign(f"{date}:{digest}:{path}".encode(), ec.ECDSA(hashes.SHA256()))).decode()
    return {"Content-Type": "application/json", "X-Apple-CloudKit-Request-KeyID": key_id,
            "X-Apple-CloudKit-Request-ISO8601Date": date, "X-Apple-CloudKit-Request-SignatureV1": signature}
def post(body, headers, suffix=""):
    request = urllib.request.Request(url + path + suffix, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
def send(body, signed_body=None, skew=0):
    return post(body, signed_headers(signed_body if signed_body is not None else body, skew))
body = json.dumps({"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Signed"}}}]}).encode()
status, reply = send(body)
assert status == 200 and reply["zones"][0]["zoneID"]["zoneName"] == "Signed", (status, reply)
tampered = body.replace(b"Signed", b"Forged")
status, reply = send(tampered, signed_body=body)
assert status == 401 and reply["serverErrorCode"] == "AUTHENTICATION_FAILED", (status, reply)
status, reply = send(body, skew=-600)
assert status == 401, (status, reply)
# A captured request is accepted once: replayed as it was, or with a query string added
# (Apple's scheme signs neither), it is refused for its whole window.
once = json.dumps({"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Once"}}}]}).encode()
captured = signed_headers(once)
status, reply = post(once, captured)
assert status == 200, (status, reply)
for suffix in ["", "?replay=1"]:
    status, reply = post(once, captured, suffix)
    assert status == 401 and reply["serverErrorCode"] == "AUTHENTICATION_FAILED", (suffix, status, reply)
status, reply = send(once)
assert status == 200, ("a new signature of the same request is a new request", status, reply)
# A signed GET has no body: Apple's form (the hash of the empty body) and `date::path` (no hash,
# as MistKit-style clients sign it) both act as the key's account; either form still binds the path.
list_path = "/database/1/iCloud.com.example.App/development/private/zones/list"
def signed_get(form, signed_path=list_path):
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    digest = base64.b64encode(hashlib.sha256(b"").digest()).decode() if form == "apple" else ""
    signature = base64.b64encode(key.sign(f"{date}:{digest}:{signed_path}".encode(), ec.ECDSA(hashes.SHA256()))).decode()
    request = urllib.request.Request(url + list_path, method="GET", headers={
        "X-Apple-CloudKit-Request-KeyID": key_id, "X-Apple-CloudKit-Request-ISO8601Date": date,
        "X-Apple-CloudKit-Request-SignatureV1": signature})
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)
for form in ["apple", "empty"]:
    status, reply = signed_get(form)
    assert status == 200 and any(z["zoneID"]["zoneName"] == "Signed" for z in reply["zones"]), (form, status, reply)
    status, reply = signed_get(form, signed_path=list_path.replace("private", "public"))
    assert status == 401, (form, "another path", status, reply)
print("ok")
"""#

    @Test func signedRequestsActAsTheKeysAccountAndTamperingIsRefused() throws {
        let fixture = try ServeFixture()
        let folder = fixture.serverHome.path
        let env = ["PATH": String(cString: getenv("PATH"))]
        let made = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", Self.makeKey, folder], environment: env)
        #expect(made.status == 0, "\(made.stderr)")
        let added = fixture.server.run(["token", "add-key", "--account", "carol", "--public-key", folder + "/public.pem",
                                        "--cloud", fixture.cloud])
        #expect(added.status == 0, "\(added.stderr)")
        let keyID = trimmed(added.stdout)
        #expect(keyID.utf8.count == 64)
        let again = fixture.server.run(["token", "add-key", "--account", "carol", "--public-key", folder + "/public.pem",
                                        "--cloud", fixture.cloud])
        #expect(again.status == 4, "the same key twice: \(again.stderr)")
        let notKey = fixture.server.run(["token", "add-key", "--account", "carol", "--public-key", folder + "/private.pem",
                                         "--cloud", fixture.cloud])
        #expect(notKey.status == 65, "\(notKey.stderr)")
        let signed = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", Self.signedClient, fixture.url, folder, keyID],
                                        environment: env)
        #expect(signed.status == 0, "\(signed.stderr)")
        #expect(signed.stdout == "ok\n")
        #expect(fixture.log.contains("zones/modify carol 200"), "\(fixture.log)")
        #expect(fixture.stop() == 0)
    }
}
