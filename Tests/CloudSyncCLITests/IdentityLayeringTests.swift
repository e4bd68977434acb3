import TestSupport
import Testing

/// Identity keys and messages are a library (CloudSyncIdentity) below the command line: it
/// knows no CLI or session, and the Message family reaches it directly, not through Keys.
@Suite("Identity keys and messages are a library, not a command family")
struct IdentityLayeringTests {
    static func manifestEntry(_ target: String) throws -> Substring {
        let bytes = try #require(TemporaryDirectory.readBytes(SettingsTableTests.packageFolder + "/Package.swift"))
        let manifest = String(decoding: bytes, as: UTF8.self)
        let start = try #require(manifest.firstRange(of: ".target(name: \"\(target)\""))
        return manifest[start.lowerBound...].prefix { $0 != ")" }
    }

    static func sources(in folder: String, importing pattern: String) -> (scanned: Int, found: String) {
        let path = SettingsTableTests.packageFolder + "/Sources/" + folder
        let all = ProcessSpawner.run("/bin/sh", ["-c", "find \"$1\" -name '*.swift' | wc -l", "sh", path],
                                     environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        let found = ProcessSpawner.run("/bin/sh", ["-c", "grep -rlE \"$2\" \"$1\" || true", "sh", path, pattern],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        return (all.stdout.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0, found.stdout)
    }

    @Test func theLibraryKnowsNoCommandLine() throws {
        let entry = try Self.manifestEntry("CloudSyncIdentity")
        for module in ["CloudSyncCLI", "CloudSyncSession", "KeysCommand", "MessageCommand"] {
            #expect(!entry.contains("\"\(module)\""), "\(entry)")
        }
        let (scanned, found) = Self.sources(in: "CloudSyncIdentity", importing: "^import (CloudSyncCLI|CloudSyncSession|KeysCommand)$")
        #expect(scanned >= 6, "scanned \(scanned) files")
        #expect(found.isEmpty, "identity sources importing the command line: \(found)")
    }

    @Test func theMessageFamilyDoesNotImportTheKeysFamily() throws {
        let entry = try Self.manifestEntry("MessageCommand")
        #expect(!entry.contains("\"KeysCommand\""), "\(entry)")
        #expect(entry.contains("\"CloudSyncIdentity\""), "\(entry)")
        let (scanned, found) = Self.sources(in: "Commands/Message", importing: "^import KeysCommand$")
        #expect(scanned > 5, "scanned \(scanned) files")
        #expect(found.isEmpty, "message sources importing the Keys family: \(found)")
    }
}
