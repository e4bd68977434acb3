#!/usr/bin/python3
"""The console in a real browser (issue 29): Debian's headless chromium through chromium-driver
and python3-selenium, against a `cloudsync serve` the Swift test (ServeConsoleBrowserTests)
started. It drives the page as a person would and checks, on every page, that the browser's
console has no error. The CLI acts on the same server in between (a conflicting save, a schema
import). Prints `ok` and the measured figures; any failure raises (non-zero exit).

Environment: CONSOLE_URL (http://127.0.0.1:PORT), ALICE_TOKEN (user), OPS_TOKEN (admin),
CAROL_TOKEN (to be revoked), API_TOKEN (the container's API token), CLOUDSYNC (the binary),
CLI_HOME (a home for the CLI), SCREENSHOTS (a folder for the PNGs).
"""
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException, NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

URL = os.environ["CONSOLE_URL"]
ALICE = os.environ["ALICE_TOKEN"]
OPS = os.environ["OPS_TOKEN"]
CAROL = os.environ["CAROL_TOKEN"]
API = os.environ["API_TOKEN"]
SHOTS = os.environ["SCREENSHOTS"]
CONTAINER = "iCloud.com.example.App"
HOSTILE_SCRIPT = "<script>window.__pwned = 1; alert('script')</script>"
HOSTILE_IMG = "\"><img src=x onerror=\"window.__pwned = 2; alert('img')\">"
HOSTILE_ESC = "\x1b[31mred\x1b[0m\x1b]0;title\x07 bell"


def cli(token, *arguments):
    env = dict(os.environ)
    env.update({"CLOUDSYNC_HOME": os.environ["CLI_HOME"], "CLOUDSYNC_CLOUD": URL, "CLOUDSYNC_TOKEN": token})
    done = subprocess.run([os.environ["CLOUDSYNC"], *arguments], env=env, capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise AssertionError(f"cloudsync {' '.join(arguments)}: exit {done.returncode}: {done.stderr}")
    return done.stdout


def call(token, path, body, method="POST"):
    request = urllib.request.Request(URL + path, data=None if method == "GET" else json.dumps(body).encode(), method=method,
                                     headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def database(endpoint, env="development", db="private"):
    return f"/database/1/{CONTAINER}/{env}/{db}/{endpoint}"


options = webdriver.ChromeOptions()
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
                 "--no-first-run", "--disable-extensions", "--user-data-dir=" + os.environ["CLI_HOME"] + "/chromium"]:
    options.add_argument(argument)
options.binary_location = "/usr/bin/chromium"
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
driver.set_window_size(1280, 800)
# Views are replaced whole when they render: an element may go stale or be missing for a moment.
wait = WebDriverWait(driver, 60, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
pages = 0


def console_clean(where):
    """No error (SEVERE) in the browser's console since the last look."""
    global pages
    pages += 1
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    if errors:
        raise AssertionError(f"{where}: the browser console has errors: {errors}")


def no_alert(where):
    try:
        text = driver.switch_to.alert.text
    except NoAlertPresentException:
        return
    raise AssertionError(f"{where}: an alert opened: {text!r}")


def view_is(name):
    wait.until(lambda d: d.find_element(By.ID, "view").get_attribute("data-view") == name)


def go(hash_route, view):
    driver.execute_script("document.getElementById('view').removeAttribute('data-view');"
                          "if (window.location.hash === arguments[0]) CS.render(); else window.location.hash = arguments[0];", hash_route)
    view_is(view)


def text_of(element_id):
    return driver.find_element(By.ID, element_id).text


def field_value(name):
    """The value input of the editor's field named `name`."""
    return driver.execute_script(
        "for (const row of document.querySelectorAll('#e-fields .fieldrow')) {"
        "  if (row.querySelector('.f-name').value === arguments[0]) return row.querySelector('.f-value'); }"
        "return null;", name)


def accept_dialog(answer=None):
    dialog = WebDriverWait(driver, 10).until(lambda d: d.switch_to.alert)
    if answer is not None:
        dialog.send_keys(answer)
    dialog.accept()


def shot(name, width=1280, height=800):
    driver.set_window_size(width, height)
    driver.execute_script("document.getElementById('toast').replaceChildren()")
    time.sleep(0.3)
    driver.save_screenshot(os.path.join(SHOTS, name))
    driver.set_window_size(1280, 800)


def sign_in(token, kind=None):
    extra = "&kind=" + kind if kind else ""
    # An open console keeps its view until the new one is ready: forget which view it showed.
    driver.execute_script("const v = document.getElementById('view'); if (v) v.removeAttribute('data-view');")
    driver.get(URL + "/console/#token=" + token + extra)
    view_is("home")
    current = driver.execute_script("return window.location.href")
    assert token not in current, f"the token stayed in the address bar: {current}"
    assert driver.execute_script("return sessionStorage.getItem('cs.token')") == token
    assert driver.get_cookies() == [], driver.get_cookies()


try:
    # Sign in with a #token= link: the account and the private database's zones show.
    sign_in(ALICE)
    assert text_of("home-account") == "alice", text_of("home-account")
    console_clean("home")
    go("#/record/%E0%A4%A", "home")  # a malformed address shows the home view, no error
    console_clean("malformed address")

    # Create a zone.
    go("#/data/development/private", "data")
    driver.find_element(By.ID, "new-zone").send_keys("Notes")
    driver.find_element(By.CSS_SELECTOR, "#zone-create button[type=submit]").click()
    wait.until(lambda d: "Notes" in d.find_element(By.ID, "zones").text)
    console_clean("zones")

    # Create a record with typed fields.
    go("#/new/development/private/Notes", "new")
    driver.find_element(By.ID, "e-name").send_keys("n1")
    driver.find_element(By.ID, "e-type").send_keys("Note")
    driver.find_element(By.CSS_SELECTOR, "#e-fields .f-name").send_keys("title")
    driver.find_element(By.CSS_SELECTOR, "#e-fields .f-value").send_keys("Hello")
    driver.find_element(By.ID, "add-field").click()
    rows = driver.find_elements(By.CSS_SELECTOR, "#e-fields .fieldrow")
    rows[1].find_element(By.CSS_SELECTOR, ".f-name").send_keys("count")
    driver.execute_script("arguments[0].value = 'INT64'; arguments[0].dispatchEvent(new Event('change'));",
                          rows[1].find_element(By.CSS_SELECTOR, ".f-type"))
    rows[1].find_element(By.CSS_SELECTOR, ".f-value").send_keys("3")
    driver.find_element(By.ID, "save-record").click()
    view_is("record")
    fields = text_of("fields")
    assert "Hello" in fields and "INT64" in fields, fields
    console_clean("record")
    assert json.loads(cli(ALICE, "record", "get", "n1", "--zone", "Notes", "--json"))["records"][0]["fields"]["count"]["value"] == 3

    # Edit it.
    driver.find_element(By.ID, "edit-record").click()
    view_is("edit")
    title = field_value("title")
    title.clear()
    title.send_keys("Hello again")
    driver.find_element(By.ID, "save-record").click()
    view_is("record")
    assert "Hello again" in text_of("fields"), text_of("fields")
    console_clean("edited record")

    # A stale edit: the CLI saves in between; the page shows the conflict and the server's version.
    go("#/edit/development/private/Notes/n1", "edit")
    cli(ALICE, "record", "save", "Note", "n1", "--zone", "Notes", "--field", "title=From the CLI", "--policy", "changed-keys")
    title = field_value("title")
    title.clear()
    title.send_keys("Stale edit")
    driver.find_element(By.ID, "save-record").click()
    wait.until(lambda d: d.find_elements(By.ID, "conflict"))
    assert "From the CLI" in text_of("conflict"), text_of("conflict")
    driver.find_element(By.ID, "take-server").click()
    value = field_value("title").get_attribute("value")
    assert value == "From the CLI", value
    driver.find_element(By.ID, "save-record").click()
    view_is("record")
    console_clean("conflict")

    # An asset downloads through its downloadURL (signed: no credential needed); a reference is a link.
    asset = os.path.join(os.environ["CLI_HOME"], "photo.bin")
    with open(asset, "wb") as f:
        f.write(bytes(range(256)) * 40)
    cli(ALICE, "record", "save", "Photo", "p1", "--zone", "Notes", "--field", "image:ASSETID=@" + asset,
        "--field", "subject:REFERENCE=n1@Notes")
    go("#/record/development/private/Notes/p1", "record")
    href = driver.find_element(By.CSS_SELECTOR, "#fields a.asset").get_attribute("href")
    assert href.startswith(URL + "/"), href
    with urllib.request.urlopen(href, timeout=30) as reply:
        assert reply.read() == bytes(range(256)) * 40, "the downloaded asset differs"
    driver.find_element(By.CSS_SELECTOR, "#fields a.ref").click()
    wait.until(lambda d: d.find_element(By.ID, "view").get_attribute("data-view") == "record" and "n1" in text_of("system-fields"))
    console_clean("asset and reference")

    # Sharing: alice shares Notes from the page, invites carol, removes her, stops sharing.
    status, body = call(CAROL, database("zones/list"), {})
    assert status == 200, body
    go("#/sharing/development", "sharing")
    driver.execute_script("document.getElementById('share-zone').value = 'Notes'")
    driver.find_element(By.ID, "share-title").send_keys("Shared notes")
    driver.find_element(By.CSS_SELECTOR, "#share-create button[type=submit]").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".share input"))
    driver.find_element(By.CSS_SELECTOR, ".share input").send_keys("carol")
    driver.find_element(By.CSS_SELECTOR, ".share button[type=submit]").click()
    wait.until(lambda d: "carol" in d.find_element(By.CSS_SELECTOR, ".share table").text)
    assert "Shared notes" in driver.find_element(By.ID, "view").text
    console_clean("sharing")
    driver.find_element(By.CSS_SELECTOR, ".share table button.danger").click()
    accept_dialog()
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, ".share table"))
    console_clean("sharing, removed")
    driver.find_element(By.CSS_SELECTOR, ".share button.stop-sharing").click()
    accept_dialog()
    wait.until(lambda d: d.find_element(By.ID, "view").get_attribute("data-view") == "sharing" and not d.find_elements(By.CSS_SELECTOR, ".share"))
    status, body = call(ALICE, database("shares/list"), {})
    assert status == 200 and json.loads(body)["shares"] == [], body
    console_clean("sharing stopped")

    # A query with a predicate and a sort.
    cli(ALICE, "record", "save", "Note", "n2", "--zone", "Notes", "--field", "title=Other")
    go("#/zone/development/private/Notes", "zone")
    driver.find_element(By.ID, "q-type").send_keys("Note")
    driver.find_element(By.ID, "q-predicate").send_keys('title BEGINSWITH "From"')
    driver.find_element(By.ID, "q-sort").send_keys("title")
    driver.find_element(By.ID, "run-query").click()
    wait.until(lambda d: d.find_element(By.ID, "results").get_attribute("data-count") == "1")
    assert "n1" in text_of("results") and "n2" not in text_of("results"), text_of("results")
    console_clean("query")
    shot("records-1280x800.png")

    # Hostile data renders as text: no alert, no injected node.
    cli(ALICE, "record", "save", "Note", "evil", "--zone", "Notes", "--field", "title=" + HOSTILE_SCRIPT,
        "--field", "img=" + HOSTILE_IMG, "--field", "esc=" + HOSTILE_ESC)
    for hash_route, view in [("#/zone/development/private/Notes", "zone"), ("#/record/development/private/Notes/evil", "record"),
                             ("#/edit/development/private/Notes/evil", "edit")]:
        go(hash_route, view)
        time.sleep(0.3)
        no_alert(hash_route)
        assert driver.execute_script("return window.__pwned === undefined"), hash_route
        assert driver.execute_script("return document.querySelectorAll('#view img, #view script').length") == 0, hash_route
        assert len(driver.find_elements(By.TAG_NAME, "script")) == 4, hash_route
        page = driver.find_element(By.ID, "view").text
        if view == "record":
            assert "<script>" in page and "<img src=x" in page, page
        console_clean(hash_route)

    # 200 records on one page (measured, not asserted).
    operations = [{"operationType": "create", "record": {"recordName": f"item{i:03}", "recordType": "Item",
                                                         "fields": {"title": {"value": f"Item {i}"}, "n": {"value": i}}}}
                  for i in range(200)]
    status, body = call(ALICE, database("records/modify"), {"zoneID": {"zoneName": "Notes"}, "operations": operations})
    assert status == 200, body
    go("#/zone/development/private/Notes", "zone")
    driver.execute_script("document.getElementById('q-limit').value = '200'")
    driver.find_element(By.ID, "q-type").send_keys("Item")
    driver.find_element(By.ID, "run-query").click()
    wait.until(lambda d: d.find_element(By.ID, "results").get_attribute("data-count") == "200")
    seconds = int(driver.find_element(By.ID, "results").get_attribute("data-ms")) / 1000  # measured in the page
    rendered = driver.find_element(By.ID, "render-time").text
    # The baseline, in the same run: the same query as a bare API call (no page, no rendering).
    started = time.monotonic()
    status, body = call(ALICE, database("records/query"), {"zoneID": {"zoneName": "Notes"}, "query": {"recordType": "Item"},
                                                            "resultsLimit": 200})
    baseline = time.monotonic() - started
    assert status == 200 and len(json.loads(body)["records"]) == 200, body[:200]
    print(f"figure: 200-record page, the query and its rendering {seconds * 1000:.0f} ms in the browser ({rendered}); "
          f"the bare API call {baseline * 1000:.0f} ms; ratio {seconds / max(baseline, 1e-6):.1f}x")
    console_clean("200 records")
    # Browsing the zone's change feed pages by its sync token: 50, then more.
    driver.execute_script("document.getElementById('q-limit').value = '50'; document.getElementById('q-type').value = '';")
    driver.find_element(By.ID, "run-query").click()
    # (a page of 50 changes, less the deletions among them: the share record that was removed)
    wait.until(lambda d: d.find_elements(By.ID, "next-page") and d.find_element(By.ID, "results").get_attribute("data-count") != "200")
    first = int(driver.find_element(By.ID, "results").get_attribute("data-count"))
    assert 40 <= first <= 50, first
    driver.find_element(By.ID, "next-page").click()
    wait.until(lambda d: int(d.find_element(By.ID, "results").get_attribute("data-count")) > first + 40)
    console_clean("paging")

    # Schema: import with the CLI as the administrator, see it, deploy it from the page.
    schema = os.path.join(os.environ["CLI_HOME"], "notes.ckdb")
    with open(schema, "w") as f:
        f.write('DEFINE SCHEMA\n    RECORD TYPE Note (\n        "___recordID" REFERENCE QUERYABLE,\n'
                '        title STRING QUERYABLE SORTABLE,\n        count INT64,\n        GRANT READ TO "_world",\n'
                '        GRANT CREATE TO "_icloud"\n    );\n')
    cli(OPS, "--account", "ops", "schema", "import", schema)
    sign_in(OPS)
    go("#/schema/development", "schema")
    wait.until(lambda d: "Note" in d.find_element(By.ID, "schema-table").text)
    assert "RECORD TYPE Note" in text_of("ckdb"), text_of("ckdb")
    wait.until(lambda d: d.find_elements(By.ID, "diff-changes"))
    assert "Note" in text_of("diff-changes"), text_of("diff-changes")
    console_clean("schema")
    shot("schema-1280x800.png")
    driver.find_element(By.ID, "deploy").click()
    accept_dialog()
    wait.until(lambda d: "Deployed" in d.find_element(By.ID, "deploy-status").text)
    go("#/schema/production", "schema")
    wait.until(lambda d: "Note" in d.find_element(By.ID, "schema-table").text)
    console_clean("deployed schema")

    # Operations: figures, and revoking a token.
    go("#/operations", "operations")
    assert "records/modify" in text_of("endpoint-figures"), text_of("endpoint-figures")
    assert CONTAINER in text_of("container-figures"), text_of("container-figures")
    rows = [row for row in driver.find_elements(By.CSS_SELECTOR, "#credentials tbody tr") if "carol" in row.text]
    assert len(rows) == 1, [row.text for row in driver.find_elements(By.CSS_SELECTOR, "#credentials tbody tr")]
    carol_id = rows[0].get_attribute("data-id")
    shot("operations-1280x800.png")
    rows[0].find_element(By.CSS_SELECTOR, "button.revoke").click()
    accept_dialog()
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, f"#credentials tr[data-id='{carol_id}']"))
    status, _ = call(CAROL, database("zones/list"), {})
    assert status == 401, f"the revoked token still works: {status}"
    console_clean("operations")

    # A notification arrives in the live view.
    go("#/subscriptions/development/private", "subscriptions")
    driver.find_element(By.ID, "listen").click()
    wait.until(lambda d: d.find_elements(By.ID, "listening"))
    status, body = call(OPS, database("zones/modify"), {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": "Watch"}}}]})
    assert status == 200, body
    status, body = call(OPS, database("subscriptions/modify"), {"operations": [{"operationType": "create", "subscription": {
        "subscriptionID": "console-watch", "subscriptionType": "zone", "zoneID": {"zoneName": "Watch"},
        "firesOn": ["create", "update", "delete"]}}]})
    assert status == 200, body
    time.sleep(1)
    status, body = call(OPS, database("records/modify"), {"zoneID": {"zoneName": "Watch"}, "operations": [{"operationType": "create", "record": {
        "recordName": "ping", "recordType": "Ping", "fields": {"at": {"value": "now"}}}}]})
    assert status == 200, body
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#notifications .notification"))
    assert "console-watch" in text_of("notifications"), text_of("notifications")
    driver.find_element(By.ID, "listen").click()
    console_clean("notifications")
    # The subscription is listed, inspected and deleted.
    go("#/subscriptions/development/private", "subscriptions")
    row = [r for r in driver.find_elements(By.CSS_SELECTOR, "#subscriptions tbody tr") if "console-watch" in r.text][0]
    row.find_element(By.XPATH, ".//button[text()='Inspect']").click()
    assert '"subscriptionID": "console-watch"' in text_of("subscription-json"), text_of("subscription-json")
    row.find_element(By.CSS_SELECTOR, "button.danger").click()
    accept_dialog()
    wait.until(lambda d: d.find_element(By.ID, "view").get_attribute("data-view") == "subscriptions" and not d.find_elements(By.ID, "subscriptions"))
    status, body = call(OPS, database("subscriptions/list"), {}, "POST")
    assert "console-watch" not in body, body
    console_clean("subscriptions")

    # The public view of an API token: read only, the public database.
    status, body = call(ALICE, database("records/modify", db="public"), {"operations": [{"operationType": "create", "record": {
        "recordName": "hello-world", "recordType": "Note", "fields": {"title": {"value": "Public hello"}}}}]})
    assert status == 200 and "serverErrorCode" not in body, body
    sign_in(API, "api")
    assert "Public view" in driver.find_element(By.ID, "view").text
    assert "Operations" not in text_of("nav") and "Schema" not in text_of("nav"), text_of("nav")
    go("#/zone/development/public/_defaultZone", "zone")
    assert not driver.find_elements(By.ID, "new-record"), "the public view is read only"
    driver.find_element(By.ID, "q-type").send_keys("Note")
    driver.find_element(By.ID, "run-query").click()
    wait.until(lambda d: d.find_element(By.ID, "results").get_attribute("data-count") == "1")
    assert "Public hello" in text_of("results"), text_of("results")
    console_clean("public view")

    # The phone-sized layout.
    sign_in(ALICE)
    shot("home-390x844.png", 390, 844)
    go("#/record/development/private/Notes/n1", "record")
    shot("record-390x844.png", 390, 844)
    shot("record-1280x800.png")
    go("#/", "home")
    shot("home-1280x800.png")
    console_clean("screenshots")

    # Delete a zone (typed confirmation).
    go("#/data/development/private", "data")
    driver.find_element(By.ID, "new-zone").send_keys("Scratch")
    driver.find_element(By.CSS_SELECTOR, "#zone-create button[type=submit]").click()
    wait.until(lambda d: "Scratch" in d.find_element(By.ID, "zones").text)
    driver.execute_script("document.getElementById('delete-zone').value = 'Scratch'")
    driver.find_element(By.ID, "delete-zone-button").click()
    accept_dialog("Scratch")
    wait.until(lambda d: "Scratch" not in d.find_element(By.ID, "zones").text)
    console_clean("zone deleted")

    # Reset development (typed confirmation): the development schema is gone, production stays.
    sign_in(OPS)
    go("#/schema/development", "schema")
    driver.find_element(By.ID, "reset").click()
    accept_dialog("reset")
    wait.until(lambda d: d.find_element(By.ID, "view").get_attribute("data-view") == "schema" and d.find_elements(By.ID, "schema-empty"))
    go("#/schema/production", "schema")
    wait.until(lambda d: "Note" in d.find_element(By.ID, "schema-table").text)
    console_clean("reset")

    print(f"ok: {pages} pages checked")
except BaseException:
    try:
        print("page:", driver.execute_script("return window.location.href"), file=sys.stderr)
        print("view:", driver.find_element(By.ID, "view").get_attribute("data-view"), driver.find_element(By.ID, "view").text[:2000],
              file=sys.stderr)
        print("toasts:", driver.find_element(By.ID, "toast").text, file=sys.stderr)
        print("console:", driver.get_log("browser"), file=sys.stderr)
        driver.save_screenshot(os.path.join(SHOTS, "failure.png"))
    except BaseException as error:
        print("(no page state:", error, ")", file=sys.stderr)
    raise
finally:
    driver.quit()
