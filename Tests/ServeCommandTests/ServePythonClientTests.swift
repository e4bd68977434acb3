import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A client written with nothing but Python's standard library, against Apple's documented
/// CloudKit Web Services dictionaries (not against this project's code), talks to a real
/// `cloudsync serve` on 127.0.0.1: API tokens (`ckAPIToken` reads the public database, a write
/// with one is 421 AUTHENTICATION_REQUIRED with `redirectURL`), the 401 reasons (no credential,
/// unknown token, revoked token, malformed API token) and the user look-ups (`users/caller`,
/// `users/lookup/id`, and the `users/lookup/account` extension), each reply's keys checked
/// against the documented ones.
@Suite("cloudsync serve: a Python standard-library client (end to end)")
struct ServePythonClientTests {
    static let script = #"""
import json, sys, urllib.request, urllib.error, urllib.parse
root, container, alice, bob, revoked, api = sys.argv[1:7]
base = root + "/database/1/" + container + "/development/"
# Apple's error dictionary (CloudKit Web Services Reference, "Error Codes" / "Error Dictionary"):
# uuid, reason, serverErrorCode, retryAfter, redirectURL (the last only with AUTHENTICATION_REQUIRED).
# ckErrorCode is the one member the server adds (README "Other clients").
ERROR_KEYS = {"uuid", "reason", "serverErrorCode", "retryAfter", "redirectURL", "ckErrorCode"}
# The user dictionary (users/caller, users/current, users/lookup/*): userRecordName, firstName,
# lastName, emailAddress; CloudKit JS's UserIdentity adds nameComponents and lookupInfo. The
# server's extension members: accountName (the login) and discoverable (the caller's own).
USER_KEYS = {"userRecordName", "firstName", "lastName", "emailAddress", "nameComponents", "lookupInfo",
             "accountName", "discoverable"}
# A per-item error entry: the error dictionary plus the key that was asked.
ENTRY_KEYS = ERROR_KEYS | {"userRecordName", "accountName", "emailAddress", "recordName", "zoneID"}

def call(scope, path, body, token=None, query=None):
    url = base + scope + "/" + path
    if query: url += "?" + urllib.parse.urlencode(query)
    headers = {"Content-Type": "application/json"}
    if token: headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)

def nulls(value):
    if value is None: return True
    if isinstance(value, dict): return any(nulls(v) for v in value.values())
    if isinstance(value, list): return any(nulls(v) for v in value)
    return False

def expect_error(got, status, code, reason_part=None):
    s, reply = got
    assert s == status, ("status", status, got)
    assert reply.get("serverErrorCode") == code, got
    assert set(reply) <= ERROR_KEYS, ("undocumented error keys", set(reply) - ERROR_KEYS)
    assert isinstance(reply.get("uuid"), str) and reply["uuid"], got
    assert isinstance(reply.get("reason"), str), got
    assert not nulls(reply), ("null member", got)
    if reason_part: assert reason_part in reply["reason"], (reason_part, got)
    if code == "AUTHENTICATION_REQUIRED":
        assert reply.get("redirectURL", "").startswith("http"), ("421 needs an absolute redirectURL", got)
    else:
        assert "redirectURL" not in reply, got
    return reply

def expect_user(user):
    assert set(user) <= USER_KEYS, ("undocumented user keys", set(user) - USER_KEYS)
    assert isinstance(user["userRecordName"], str) and user["userRecordName"], user
    assert not nulls(user), user
    if "nameComponents" in user:
        assert set(user["nameComponents"]) <= {"givenName", "familyName", "middleName", "namePrefix", "nameSuffix",
                                               "nickname"}, user
    return user

# Alice (signed in) publishes two posts; a Post is readable by _world, a Secret by _icloud only.
status, reply = call("public", "records/modify", {"operations": [
    {"operationType": "create", "record": {"recordName": "p1", "recordType": "Post", "fields": {"title": {"value": "hello world"}}}},
    {"operationType": "create", "record": {"recordName": "s1", "recordType": "Secret", "fields": {"title": {"value": "members only"}}}}]},
    token=alice)
assert status == 200 and all("recordChangeTag" in r for r in reply["records"]), reply

# An API token alone reads what the world may read: query and lookup of the public database.
anon = {"ckAPIToken": api}
status, reply = call("public", "records/query", {"query": {"recordType": "Post"}}, query=anon)
assert status == 200 and not nulls(reply), reply
assert [r["fields"]["title"]["value"] for r in reply["records"]] == ["hello world"], reply
assert {"recordName", "recordType", "fields", "recordChangeTag"} <= set(reply["records"][0]), reply
status, reply = call("public", "records/lookup", {"records": [{"recordName": "p1"}]}, query=anon)
assert status == 200 and reply["records"][0]["fields"]["title"]["value"] == "hello world", reply
status, reply = call("public", "records/query", {"query": {"recordType": "Secret"}}, query=anon)
assert "members only" not in json.dumps(reply), reply

# Anything that needs a user is 421 AUTHENTICATION_REQUIRED with a redirectURL: a write with an
# API token, the private database, the caller's identity.
expect_error(call("public", "records/modify", {"operations": [
    {"operationType": "create", "record": {"recordName": "p2", "recordType": "Post", "fields": {"title": {"value": "spam"}}}}]},
    query=anon), 421, "AUTHENTICATION_REQUIRED")
expect_error(call("public", "records/modify", {"operations": [
    {"operationType": "update", "record": {"recordName": "p1", "recordType": "Post", "fields": {"title": {"value": "defaced"}}}}]},
    query=anon), 421, "AUTHENTICATION_REQUIRED")
expect_error(call("private", "records/query", {"query": {"recordType": "Post"}}, query=anon), 421, "AUTHENTICATION_REQUIRED")
expect_error(call("public", "users/caller", {}, query=anon), 421, "AUTHENTICATION_REQUIRED")
status, reply = call("public", "records/lookup", {"records": [{"recordName": "p1"}]}, query=anon)
assert reply["records"][0]["fields"]["title"]["value"] == "hello world", ("the refused writes changed nothing", reply)
# With the user's web token as well, the request is that user's (Apple's flow).
status, me = call("public", "users/caller", {}, query={"ckAPIToken": api, "ckWebAuthToken": alice})
assert status == 200 and expect_user(me).get("accountName") == "alice", me

# 401 AUTHENTICATION_FAILED, its reason saying which part failed.
expect_error(call("public", "records/query", {"query": {"recordType": "Post"}}), 401, "AUTHENTICATION_FAILED", "give")
expect_error(call("private", "records/query", {"query": {"recordType": "Post"}}, token="no-such-token"), 401,
             "AUTHENTICATION_FAILED", "token is unknown")
expect_error(call("private", "records/query", {"query": {"recordType": "Post"}}, token=revoked), 401,
             "AUTHENTICATION_FAILED", "token was revoked")
expect_error(call("public", "records/query", {"query": {"recordType": "Post"}}, query={"ckAPIToken": "ABC"}), 401,
             "AUTHENTICATION_FAILED", "64 lowercase hex")
expect_error(call("public", "records/query", {"query": {"recordType": "Post"}}, query={"ckAPIToken": "0" * 64}), 401,
             "AUTHENTICATION_FAILED", "API token is unknown")

# users/caller: each account is itself.
status, bob_me = call("public", "users/caller", {}, token=bob)
assert status == 200 and expect_user(bob_me)["accountName"] == "bob", bob_me
assert bob_me["firstName"] == "Bob" and bob_me["lastName"] == "Builder", bob_me
assert bob_me["nameComponents"] == {"givenName": "Bob", "familyName": "Builder"}, bob_me
status, alice_me = call("public", "users/caller", {}, token=alice)
assert status == 200 and expect_user(alice_me)["userRecordName"] != bob_me["userRecordName"], alice_me

# users/lookup/id: alice finds bob by his userRecordName; an unknown one is a NOT_FOUND entry.
status, reply = call("public", "users/lookup/id", {"users": [{"userRecordName": bob_me["userRecordName"]},
                                                              {"userRecordName": "_0123456789abcdef0123456789abcdef"}]}, token=alice)
assert status == 200 and len(reply["users"]) == 2, reply
found, missing = reply["users"]
assert expect_user(found)["userRecordName"] == bob_me["userRecordName"] and found["firstName"] == "Bob", found
assert "discoverable" not in found, ("only the caller's own dictionary says whether it is discoverable", found)
assert set(missing) <= ENTRY_KEYS and missing["serverErrorCode"] == "NOT_FOUND", missing
assert missing["userRecordName"] == "_0123456789abcdef0123456789abcdef" and isinstance(missing["reason"], str), missing

# users/lookup/account (the server's look-up by login, where Apple looks up by email).
status, reply = call("public", "users/lookup/account", {"users": [{"accountName": "bob"}, {"accountName": "nobody"}]}, token=alice)
assert status == 200 and len(reply["users"]) == 2, reply
found, missing = reply["users"]
assert expect_user(found)["userRecordName"] == bob_me["userRecordName"] and found["accountName"] == "bob", found
assert set(missing) <= ENTRY_KEYS and missing["serverErrorCode"] == "NOT_FOUND" and missing["accountName"] == "nobody", missing
# Malformed and oversized look-ups are BAD_REQUEST for the whole request.
expect_error(call("public", "users/lookup/id", {"users": [{"accountName": "bob"}]}, token=alice), 400, "BAD_REQUEST")
expect_error(call("public", "users/lookup/account", {"users": [{"accountName": "u%d" % i} for i in range(101)]}, token=alice),
             400, "BAD_REQUEST")
# The look-ups need a user too.
expect_error(call("public", "users/lookup/id", {"users": [{"userRecordName": bob_me["userRecordName"]}]}, query=anon),
             421, "AUTHENTICATION_REQUIRED")
print("ok")
"""#

    @Test func apiTokensAuthenticationErrorsAndUserLookupsAsAppleDocumentsThem() throws {
        let fixture = try ServeFixture()
        let container = ServeAPITokenTests.container
        let server = fixture.server
        func token(_ arguments: [String]) -> String {
            trimmed(server.run(["token", "create"] + arguments + ["--cloud", fixture.cloud]).stdout)
        }
        let admin = token(["--account", "ops", "--admin"])
        let (home, ops) = fixture.client("ops", token: admin)
        let imported = ops.run(["--account", "ops", "schema", "import", home.write("s.ckdb", ServeAPITokenTests.schema)], device: "o")
        #expect(imported.status == 0, "\(imported.stderr)")
        let bob = token(["--account", "bob"])
        let (_, bobClient) = fixture.client("bob", token: bob)
        #expect(bobClient.run(["--account", "bob", "whoami", "--set-name", "Bob Builder"], device: "b").status == 0)
        // A token of carol's, revoked before the client uses it.
        let carolToken = token(["--account", "carol"])
        let listed = try server.run(["token", "list", "--json", "--cloud", fixture.cloud]).json()
        let carolEntry = try #require(listed["tokens"]?.arrayValue?.first { $0["account"] == .string("carol") }, "\(listed)")
        let carolID = try #require(carolEntry["id"]?.stringValue)
        #expect(server.run(["token", "revoke", carolID, "--cloud", fixture.cloud]).status == 0)
        let api = try #require(try server.run(["--container", container, "token", "create", "--api", "--json", "--cloud", fixture.cloud])
            .json()["token"]?.stringValue)
        let result = ProcessSpawner.run("/usr/bin/env", ["python3", "-c", Self.script, fixture.url, container, fixture.token, bob,
                                                         carolToken, api],
                                        environment: ["PATH": String(cString: getenv("PATH"))])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "ok\n", "\(result.stdout)")
        #expect(fixture.stop() == 0)
    }
}
