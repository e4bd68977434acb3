import CloudSyncCLI
import CloudSyncCommands
import CloudSyncSession
import TestSupport
import Testing

/// CloudSyncCLI is the CLI kit with no cloud knowledge; the cloud session lives in
/// CloudSyncSession, which registers what the kit cannot know (the `--cloud` URL's check). The
/// kit's manifest entries name Core (and the docs target the kit) alone; since every import must
/// be a declared dependency (`ManifestImportsTests`), no kit source can import a cloud module.
@Suite("The CLI kit knows no cloud")
struct KitLayeringTests {
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

    @Test func theSessionRegistersTheCloudURLCheck() {
        CommandTable.registerBackends()  // sqlite: URLs are known once the composition root registers them
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
