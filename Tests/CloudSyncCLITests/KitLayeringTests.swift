import CloudSyncCLI
import CloudSyncSession
import TestSupport
import Testing

/// CloudSyncCLI is the CLI kit with no cloud knowledge; the cloud session lives in
/// CloudSyncSession, which registers what the kit cannot know (the `--cloud` URL's check).
@Suite("The CLI kit knows no cloud")
struct KitLayeringTests {
    static let cloudModules = ["CloudSyncService", "CloudSyncSQLiteCloud", "CloudSyncDevice", "CloudSyncWebProtocol", "CloudSyncWebServer", "CloudSyncWebClient", "CloudSyncCrypto",
                               "CloudSyncSQLite", "CloudSyncPostgres", "CloudSyncPostgresCloud", "CloudSyncSession"]

    @Test func theKitTargetDependsOnCoreAlone() throws {
        let bytes = try #require(TemporaryDirectory.readBytes(SettingsTableTests.packageFolder + "/Package.swift"))
        let manifest = String(decoding: bytes, as: UTF8.self)
        let target = try #require(manifest.firstRange(of: ".target(name: \"CloudSyncCLI\""))
        let entry = manifest[target.lowerBound...].prefix { $0 != ")" }
        #expect(entry.contains("dependencies: [\"CloudSyncCore\"]"), "\(entry)")
    }

    /// The generated documentation (man pages, completion scripts) is built on the kit alone.
    @Test func theDocsTargetDependsOnTheKitAlone() throws {
        let bytes = try #require(TemporaryDirectory.readBytes(SettingsTableTests.packageFolder + "/Package.swift"))
        let manifest = String(decoding: bytes, as: UTF8.self)
        let target = try #require(manifest.firstRange(of: ".target(name: \"CloudSyncCLIDocs\""))
        let entry = manifest[target.lowerBound...].prefix { $0 != ")" }
        #expect(entry.contains("dependencies: [\"CloudSyncCLI\"]"), "\(entry)")
    }

    @Test(arguments: ["CloudSyncCLI", "CloudSyncCLIDocs"])
    func noKitSourceImportsACloudModule(module: String) {
        let folder = SettingsTableTests.packageFolder + "/Sources/" + module
        let all = ProcessSpawner.run("/bin/sh", ["-c", "find \"$1\" -name '*.swift' | wc -l", "sh", folder],
                                     environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        #expect((all.stdout.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0) > 5, "scanned \(folder)")
        let pattern = "^import (" + Self.cloudModules.joined(separator: "|") + ")$"
        let found = ProcessSpawner.run("/bin/sh", ["-c", "grep -rlE \"$2\" \"$1\" || true", "sh", folder, pattern],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        #expect(found.stdout.isEmpty, "kit sources importing a cloud module: \(found.stdout)")
    }

    @Test func theSessionRegistersTheCloudURLCheck() {
        SessionSettings.registerChecks()
        for bad in ["foo", "nope://x", "sqlite://relative"] {
            #expect(throws: CLIError.self, "\(bad)") {
                try Settings.resolve(overrides: SettingsOverrides(cloud: bad), environment: ["HOME": "/x"],
                                     stdoutIsTTY: false) { _ in }
            }
            do {
                _ = try Settings.resolve(overrides: SettingsOverrides(cloud: bad), environment: ["HOME": "/x"],
                                         stdoutIsTTY: false) { _ in }
            } catch {
                #expect(error.message.contains("(from --cloud)"), "\(error.message)")
            }
        }
        #expect((try? Settings.resolve(overrides: SettingsOverrides(cloud: "sqlite:///x/cloud.sqlite"), environment: ["HOME": "/x"],
                                       stdoutIsTTY: false) { _ in })?.cloudURL == "sqlite:///x/cloud.sqlite")
    }
}
