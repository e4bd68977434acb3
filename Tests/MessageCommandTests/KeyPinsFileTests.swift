import CloudSyncCore
import TestSupport
import Testing

/// A damaged pin file is refused the same way by the Keys and the Message families: one line
/// naming the file, exit 65 (the identity library's error, worded and coded by the command line).
@Suite("keys and message: a damaged pin file is bad data (through the binary)")
struct KeyPinsFileTests {
    @Test func aDamagedPinFileExits65FromBothFamilies() throws {
        let fx = try MessageFixture(.embedded)
        _ = try fx.identity("bob")
        #expect(fx.run("alice", ["keys", "show", "bob"]).status == 0)
        let found = ProcessSpawner.run("/usr/bin/find", [fx.home.path, "-path", "*/keys/alice/laptop/*.pins"],
                                       environment: ["PATH": "/usr/bin:/bin"])
        let path = try #require(found.stdout.split(separator: "\n").first.map(String.init), "alice's pin file: \(found.stdout)")
        try #require(path.hasPrefix(fx.home.path + "/"))
        _ = fx.home.write(String(path.dropFirst(fx.home.path.count + 1)), "not json", mode: 0o600)
        let expected = "the key pin file \(path) is damaged; remove it to pin keys again on first sight"
        for arguments in [["keys", "show", "bob"], ["message", "send", "bob", "hi"], ["message", "inbox"]] {
            let result = fx.run("alice", arguments)
            #expect(result.status == 65, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
            let json = fx.run("alice", arguments + ["--json"])
            #expect(json.status == 65, "\(arguments) --json: \(json.stderr)")
            #expect(json.stderr.contains("is damaged; remove it"), "\(arguments) --json: \(json.stderr)")
        }
        // Removed, the pins start again on first sight.
        #expect(ProcessSpawner.run("/bin/rm", [path], environment: ["PATH": "/usr/bin:/bin"]).status == 0)
        #expect(fx.run("alice", ["message", "send", "bob", "hi"]).status == 0)
    }
}
