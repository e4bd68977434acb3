import CloudSyncCore
import TestSupport
import Testing

/// Accounts that each run on two devices (laptop and phone), on one embedded cloud or through a
/// `cloudsync serve`, each account in a home of its own with its own token: a scenario written
/// once runs on both.
struct MessageFixture {
    static let passphrase = ["CLOUDSYNC_PASSPHRASE": "correct horse"]
    let accounts: AccountsCloud
    /// The embedded cloud's home (the server's on `serve`).
    var home: TemporaryDirectory { accounts.home }

    init(_ backend: AccountsBackend, accounts names: [String] = ["alice", "bob", "carol"]) throws {
        accounts = try AccountsCloud(backend, accounts: names, environment: Self.passphrase)
    }

    /// Runs cloudsync as `account` on `device`.
    @discardableResult
    func run(_ account: String, _ arguments: [String], device: String = "laptop", stdin: String = "",
             env: [String: String] = [:]) -> ProcessResult {
        accounts.run(account, arguments, device: device, stdin: stdin, env: env)
    }

    /// `keys identity --json` of `account`.
    func identity(_ account: String, device: String = "laptop") throws -> JSONValue {
        let result = run(account, ["keys", "identity", "--json"], device: device)
        try #require(result.status == 0, "\(result.stderr)")
        return try result.json()
    }

    /// Sends and returns the message ID.
    func send(_ from: String, _ to: String, _ text: String, device: String = "laptop") throws -> String {
        let result = run(from, ["message", "send", to, text, "--json"], device: device)
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(result.json()["id"]?.stringValue)
    }

    /// The inbox (or outbox) as JSON messages.
    func box(_ account: String, _ which: String = "inbox", device: String = "laptop", extra: [String] = []) throws -> [JSONValue] {
        let result = run(account, ["message", which, "--json"] + extra, device: device)
        try #require(result.status == 0, "\(result.stderr)")
        return try result.json()["messages"]?.arrayValue ?? []
    }

    /// Runs sqlite3 on the cloud file (the embedded cloud's, or the file `serve` runs on).
    func sqlite(_ sql: String) -> ProcessResult {
        ProcessSpawner.run("/usr/bin/sqlite3", [home.file("cloud.sqlite"), sql], environment: ["PATH": "/usr/bin:/bin"])
    }
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if Array(haystack[start..<start + needle.count]) == needle { return true }
    }
    return false
}
