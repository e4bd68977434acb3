import TestSupport
import Testing

/// Issue 31, item 3: the Web Services modules in three, and the HTTP server generic. Commands
/// reach a remote cloud through the client and never compile against the server; the protocol
/// and the client know no HTTP server; the HTTP server knows no cloud and no CloudKit error body.
@Suite("Web Services layering")
struct WebLayeringTests {
    static let serverModules = ["CloudSyncWebServer", "CloudSyncHTTPServer"]

    /// The files under `folder` (recursively) with an `import` of one of `modules`.
    static func importers(of modules: [String], in folder: String) -> [String] {
        let pattern = "^(@testable )?import (" + modules.joined(separator: "|") + ")$"
        let found = ProcessSpawner.run("/bin/sh", ["-c", "grep -rlE \"$2\" \"$1\" || true", "sh", folder, pattern],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        return found.stdout.split(separator: "\n").map(String.init)
    }

    /// The dependency list of target `name` in Package.swift.
    static func dependencies(of name: String) throws -> Substring {
        let bytes = try #require(TemporaryDirectory.readBytes(SettingsTableTests.packageFolder + "/Package.swift"))
        let manifest = String(decoding: bytes, as: UTF8.self)
        let target = try #require(manifest.firstRange(of: "(name: \"\(name)\""), "\(name) in Package.swift")
        return manifest[target.lowerBound...].prefix { $0 != "]" }
    }

    @Test func commandsAndTheSessionDoNotCompileAgainstTheServer() throws {
        let root = SettingsTableTests.packageFolder + "/Sources"
        let importers = Self.importers(of: Self.serverModules, in: root + "/Commands")
            + Self.importers(of: Self.serverModules, in: root + "/CloudSyncSession")
        #expect(importers.allSatisfy { $0.hasPrefix(root + "/Commands/Serve/") }, "\(importers)")
        for target in ["CloudSyncSession", "ZoneCommand", "RecordCommand", "SyncCommand", "CloudCommand", "ShareCommand",
                       "SchemaCommand", "SubscribeCommand", "StoreCommand"] {
            let entry = try Self.dependencies(of: target)
            for module in Self.serverModules { #expect(!entry.contains("\"\(module)\""), "\(target): \(entry)") }
        }
        #expect(try Self.dependencies(of: "CloudSyncSession").contains("\"CloudSyncWebClient\""))
    }

    @Test func theProtocolAndTheClientKnowNoServer() throws {
        let root = SettingsTableTests.packageFolder + "/Sources"
        for module in ["CloudSyncWebProtocol", "CloudSyncWebClient"] {
            #expect(Self.importers(of: Self.serverModules, in: root + "/" + module).isEmpty, "\(module)")
            let entry = try Self.dependencies(of: module)
            for server in Self.serverModules { #expect(!entry.contains("\"\(server)\""), "\(module): \(entry)") }
        }
    }

    @Test func theHTTPServerKnowsNoCloudAndNoCloudKitErrorBody() throws {
        let folder = SettingsTableTests.packageFolder + "/Sources/CloudSyncHTTPServer"
        let cloudModules = ["CloudSyncService", "CloudSyncSQLiteCloud", "CloudSyncWebProtocol", "CloudSyncWebServer", "CloudSyncWebClient"]
        #expect(Self.importers(of: cloudModules, in: folder).isEmpty)
        let found = ProcessSpawner.run("/bin/sh", ["-c", "grep -rlE 'serverErrorCode|ckErrorCode|TRY_AGAIN_LATER|BAD_REQUEST|notifications/poll' \"$1\" || true",
                                                   "sh", folder],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        #expect(found.stdout.isEmpty, "CloudKit words in the HTTP server: \(found.stdout)")
        let entry = try Self.dependencies(of: "CloudSyncHTTPServer")
        #expect(entry.contains("dependencies: [\"CloudSyncCore\", \"CMicroHTTPD\", \"CZlib\""), "\(entry)")
    }
}
