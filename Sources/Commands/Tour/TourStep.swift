/// One step of `cloudsync tour`: what it shows, the command a user would type, and the exit
/// status that step must end with.
struct TourStep: Sendable {
    var title: String
    var device: String
    var arguments: [String]
    var expectedStatus: Int32

    init(_ title: String, device: String = "laptop", _ arguments: [String], expect expectedStatus: Int32 = 0) {
        self.title = title
        self.device = device
        self.arguments = arguments
        self.expectedStatus = expectedStatus
    }
}

/// The steps of the tour, in order. Later features append theirs.
enum TourScript {
    static let steps: [TourStep] = [
        TourStep("Alice's laptop creates a zone that tracks changes", ["zone", "create", "Notes", "--atomic"]),
        TourStep("The laptop saves a note into it",
                 ["record", "save", "Note", "first", "--zone", "Notes", "--field", "title=Hello from the laptop",
                  "--field", "count:INT64=1", "--field", "tags:STRING_LIST=inbox,work"]),
        TourStep("The phone fetches what changed: it gets the note", device: "phone", ["fetch-changes"]),
        TourStep("Asked again, the phone has nothing new to fetch", device: "phone", ["fetch-changes"]),
        TourStep("The laptop changes one field (save policy changed-keys)",
                 ["record", "save", "Note", "first", "--zone", "Notes", "--field", "count:INT64=2", "--policy", "changed-keys"]),
        TourStep("The phone saves without the current change tag: the cloud refuses (conflict, exit 4)", device: "phone",
                 ["record", "save", "Note", "first", "--zone", "Notes", "--field", "title=Stale edit"], expect: 4),
        TourStep("The phone fetches again and gets only the update", device: "phone", ["fetch-changes"]),
        TourStep("Query the zone with a predicate",
                 ["record", "query", "Note", "--zone", "Notes", "--where", "count >= %@ AND tags CONTAINS %@",
                  "--arg", "2", "--arg", "work"]),
        TourStep("The laptop deletes the note", ["record", "delete", "first", "--zone", "Notes"]),
        TourStep("The phone fetches the deletion", device: "phone", ["fetch-changes", "--json"]),
        TourStep("Asking for a record that is gone: not found (exit 3)", device: "phone",
                 ["record", "get", "first", "--zone", "Notes"], expect: 3),
        TourStep("The zones of Alice's private database", ["zone", "list"]),
        // The local store and the synchronizer.
        TourStep("Offline, the laptop writes to its local store (no cloud call)",
                 ["store", "put", "Todo", "milk", "--field", "title=Buy milk", "--field", "done:INT64=0"]),
        TourStep("Every local change is in the persistent history", ["store", "history"]),
        TourStep("Sync is off until Alice turns it on: nothing leaves the laptop", ["store", "sync"]),
        TourStep("Alice turns sync on for her account: what was recorded offline goes up", ["store", "sync", "on"]),
        TourStep("The phone syncs and gets the todo", device: "phone", ["store", "sync"]),
        TourStep("Offline on the laptop: a new title", ["store", "put", "Todo", "milk", "--field", "title=Buy oat milk"]),
        TourStep("Offline on the phone: mark it done", device: "phone",
                 ["store", "put", "Todo", "milk", "--field", "done:INT64=1"]),
        TourStep("The laptop syncs first", ["store", "sync"]),
        TourStep("The phone syncs: a conflict, merged field by field (merge policy fields)", device: "phone",
                 ["store", "sync"]),
        TourStep("The laptop pulls the merge", ["store", "sync"]),
        TourStep("Both devices now hold the same todo", device: "phone", ["store", "get", "milk"]),
        TourStep("The conflict log says what happened", device: "phone", ["store", "conflicts"]),
        TourStep("Status: nothing pending", device: "phone", ["store", "status"]),
        // 2FA codes (otp): offline on the desktop, which never syncs in this tour.
        TourStep("On her desktop, Alice adds a 2FA token with a new random secret (secrets never go on the command line)",
                 device: "desktop", ["otp", "add", "--issuer", "Example", "--account-name", "alice@example.com", "--generate"]),
        TourStep("And an HOTP token (counter-based)", device: "desktop", ["otp", "add", "vpn", "--type", "hotp", "--generate"]),
        TourStep("Her tokens, without their secrets", device: "desktop", ["otp", "list"]),
        TourStep("The current code and the seconds it has left", device: "desktop", ["otp", "code", "example"]),
        TourStep("Codes at any time, after 2038 too", device: "desktop",
                 ["otp", "code", "example", "--at", "2040-01-01T00:00:00Z", "--next", "2"]),
        TourStep("An HOTP code uses the counter, which then advances", device: "desktop", ["otp", "code", "vpn"]),
        TourStep("A query that matches no token: not found (exit 3)", device: "desktop", ["otp", "code", "github"], expect: 3),
        TourStep("A QR code to scan the token into a phone app (it shows the secret)", device: "desktop",
                 ["otp", "export", "example", "--qr"]),
        // The key-value store, encrypted fields and the toggle (seed 000).
        TourStep("The account's key-value store: the laptop sets a preference", ["kv", "set", "theme", "dark"]),
        TourStep("The laptop syncs its key-value store", ["kv", "sync"]),
        TourStep("The phone syncs it and hears why keys changed", device: "phone", ["kv", "sync"]),
        TourStep("A password, encrypted on the laptop before it syncs (passphrase from CLOUDSYNC_PASSPHRASE)",
                 ["store", "put", "Login", "bank", "--field", "user=alice", "--field", "password=hunter2", "--encrypt", "password"]),
        TourStep("The laptop syncs", ["store", "sync"]),
        TourStep("The cloud holds only ciphertext", ["record", "get", "bank", "--zone", "com.apple.coredata.cloudkit.zone"]),
        TourStep("The phone unlocks the data key with the same passphrase and reads the password", device: "phone",
                 ["store", "sync"]),
        TourStep("Decrypted on the phone", device: "phone", ["store", "get", "bank"]),
        TourStep("Alice turns sync off and deletes the cloud copy", ["store", "sync", "off", "--delete-cloud-data", "--yes"]),
        TourStep("The phone sees the switch: no data calls, its records stay", device: "phone", ["store", "sync"]),
        TourStep("The phone still has everything", device: "phone", ["store", "query", "Todo"]),
        // Subscriptions and notifications (seed 001).
        TourStep("First launch on the phone: make sure of the zone, subscribe to the private and shared databases",
                 device: "phone", ["subscribe", "init", "--zone", "Notes"]),
        TourStep("The next launch sends no request: the phone remembers what it created", device: "phone",
                 ["subscribe", "init", "--zone", "Notes"]),
        TourStep("The phone also wants an alert for urgent notes (a query subscription)", device: "phone",
                 ["subscribe", "create", "--query", "Note", "--where", "priority >= %@", "--arg", "3",
                  "--fires-on", "create,update", "--alert", "Urgent note", "--desired-keys", "title", "--id", "urgent"]),
        TourStep("The account's subscriptions", device: "phone", ["subscribe", "list"]),
        TourStep("The laptop saves an urgent note",
                 ["record", "save", "Note", "call", "--zone", "Notes", "--field", "title=Call Bob", "--field", "priority:INT64=5"]),
        TourStep("The phone reads its notifications: the database changed, and the urgent note", device: "phone",
                 ["subscribe", "listen", "--timeout", "0"]),
        TourStep("The laptop saves an ordinary note",
                 ["record", "save", "Note", "later", "--zone", "Notes", "--field", "title=Someday", "--field", "priority:INT64=1"]),
        TourStep("Woken by the notification, the phone fetches only what changed", device: "phone",
                 ["subscribe", "listen", "--once", "--timeout", "10", "--exec", "cloudsync fetch-changes"]),
        TourStep("Nothing is waiting now: listening with a timeout exits 75", device: "phone",
                 ["subscribe", "listen", "--timeout", "0.2"], expect: 75),
        TourStep("Deleting a subscription that does not exist: not found (exit 3)", device: "phone",
                 ["subscribe", "delete", "nope"], expect: 3),
    ]
}
