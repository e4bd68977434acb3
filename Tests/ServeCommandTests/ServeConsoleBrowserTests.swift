import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The console in a real browser (issue 29): Debian's headless chromium, driven by
/// python3-selenium through chromium-driver (all installed by scripts/install-deps), against a
/// real `serve` on 127.0.0.1. The script (Tests/Browser/console_browser_test.py) signs in with a
/// `#token=` link, creates a zone and a record, edits it, meets a conflict the CLI provoked,
/// queries with a predicate, renders hostile field values as text, shows a page of 200 records,
/// downloads an asset, follows a reference, invites and removes a share's participant, sees a
/// schema the CLI imported and deploys it, revokes a token as an administrator, sees a
/// notification arrive, signs in with an API token, deletes a zone and resets development,
/// checking the browser's console for errors on every page. Screenshots go to a temporary folder, or to
/// `CLOUDSYNC_CONSOLE_SCREENSHOTS` when set (docs/console/ was made so).
@Suite("cloudsync serve: the console in a real browser")
struct ServeConsoleBrowserTests {
    static let script: String = {
        let here = #filePath
        // …/Tests/ServeCommandTests/ThisFile.swift → …/Tests/Browser/console_browser_test.py
        let folder = here.split(separator: "/", omittingEmptySubsequences: false).dropLast(2).joined(separator: "/")
        return folder + "/Browser/console_browser_test.py"
    }()

    @Test func theConsoleWorksInChromium() throws {
        let fixture = try ServeFixture()
        func token(_ arguments: [String]) -> String {
            trimmed(fixture.server.run(arguments + ["--cloud", fixture.cloud]).stdout)
        }
        let ops = token(["token", "create", "--account", "ops", "--admin"])
        let carol = token(["token", "create", "--account", "carol"])
        let api = token(["--container", "iCloud.com.example.App", "token", "create", "--api"])
        let home = TemporaryDirectory("console-browser")
        let shots = ProcessInfoLite.environment("CLOUDSYNC_CONSOLE_SCREENSHOTS") ?? home.file("shots")
        _ = mkdir(shots, 0o755)
        let result = ProcessSpawner.run("/usr/bin/python3", [Self.script], environment: [
            "CONSOLE_URL": fixture.url, "ALICE_TOKEN": fixture.token, "OPS_TOKEN": ops, "CAROL_TOKEN": carol, "API_TOKEN": api,
            "CLOUDSYNC": BinaryRunner.cloudsyncPath, "CLI_HOME": home.path, "SCREENSHOTS": shots,
            "PATH": "/usr/bin:/bin", "HOME": home.path,
        ])
        // The measured figures (the render time of a 200-record page) go to the test log.
        print(result.stdout)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("ok: "), "\(result.stdout)")
        #expect(fixture.stop() == 0)
        // The #token= link never reached the server: no token in any logged request.
        #expect(!fixture.log.contains(fixture.token) && !fixture.log.contains(ops) && !fixture.log.contains(api), "\(fixture.log)")
    }
}

/// The process's environment variable `name`, or nil (empty counts as unset).
enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
