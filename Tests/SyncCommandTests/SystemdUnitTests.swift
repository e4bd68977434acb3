import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// contrib/systemd/cloudsync-sync@.service: a user unit systemd accepts as it is (`systemd-analyze
/// verify --user`, warnings count as failures), running the watcher of the instance's device.
@Suite("the systemd user unit of sync --watch")
struct SystemdUnitTests {
    static let repository: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    @Test func systemdAcceptsTheUnitAndItRunsTheWatcherOfItsInstance() throws {
        let unit = try #require(TemporaryDirectory.readBytes(Self.repository + "/contrib/systemd/cloudsync-sync@.service"))
        let text = String(decoding: unit, as: UTF8.self)
        #expect(text.contains("ExecStart=/usr/local/bin/cloudsync --device %i sync --watch"))
        #expect(text.contains("RestartPreventExitStatus=75 77"), "a second watcher (75) or a refused credential (77) is not restarted")
        let folder = TemporaryDirectory("systemd-unit")
        folder.makeDirectory("run")
        chmod(folder.file("run"), 0o700)
        // The instance, with ExecStart on the built binary (verify checks that it is executable).
        let instance = folder.write("cloudsync-sync@laptop.service",
                                    text.replacingOccurrences("/usr/local/bin/cloudsync", BinaryRunner.cloudsyncPath))
        let result = ProcessSpawner.run("/usr/bin/systemd-analyze", ["verify", "--user", "--man=no", instance],
                                        environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path,
                                                      "XDG_RUNTIME_DIR": folder.file("run"), "LANG": "C.UTF-8"])
        #expect(result.status == 0, "systemd-analyze: \(result.stderr)")
        #expect(result.stderr.isEmpty && result.stdout.isEmpty, "no warning: \(result.stdout) \(result.stderr)")
        // The check can fail: a unit with an unknown key is reported.
        let broken = folder.write("broken@laptop.service", text.replacingOccurrences("[Service]", "[Service]\nRestartt=always"))
        let refused = ProcessSpawner.run("/usr/bin/systemd-analyze", ["verify", "--user", "--man=no", broken],
                                         environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path,
                                                       "XDG_RUNTIME_DIR": folder.file("run"), "LANG": "C.UTF-8"])
        #expect(refused.stderr.contains("Restartt"), "\(refused.stderr)")
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation).
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
