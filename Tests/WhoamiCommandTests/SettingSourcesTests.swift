import CloudSyncCore
import TestSupport
import Testing

/// Issue 30 item 1: every setting is resolved and validated alike from the flag, the variable
/// and the config file (`SettingSpec.validate`), and `whoami` shows what was resolved,
/// the environment included.
@Suite("settings from every source (end to end)")
struct SettingSourcesTests {
    let home = TemporaryDirectory("setting-sources")

    enum Source: CaseIterable { case flag, variable, config }

    /// `whoami --json` with `setting` = `value` given by `source` (no other source sets it).
    func whoami(_ setting: String, _ variable: String, _ value: String, from source: Source) -> ProcessResult {
        var cli = BinaryRunner(home: home.path)
        cli.environment["CLOUDSYNC_ACCOUNT"] = nil
        cli.environment["CLOUDSYNC_CONFIG"] = home.file("absent.conf")
        cli.environment[variable] = nil
        var arguments = ["whoami", "--json"]
        switch source {
        case .flag: arguments = ["--\(setting)", value] + arguments
        case .variable: cli.environment[variable] = value
        case .config: cli.environment["CLOUDSYNC_CONFIG"] = home.write("cs.conf", "\(setting) = \(value)\n")
        }
        return cli.run(arguments)
    }

    func where_(_ source: Source, _ setting: String, _ variable: String) -> String {
        switch source {
        case .flag: "--\(setting)"
        case .variable: "$\(variable)"
        case .config: home.file("cs.conf") + ":1"
        }
    }

    @Test func everySettingFromEverySourceReachesWhoami() throws {
        let other = home.file("other")
        let cases: [(String, String, String, String, String)] = [
            ("account", "CLOUDSYNC_ACCOUNT", "bob", "account", "bob"),
            ("device", "CLOUDSYNC_DEVICE", "desk", "device", "desk"),
            ("container", "CLOUDSYNC_CONTAINER", "iCloud.com.example.Other", "container", "iCloud.com.example.Other"),
            ("environment", "CLOUDSYNC_ENVIRONMENT", "production", "environment", "production"),
            ("cloud", "CLOUDSYNC_CLOUD", "sqlite://" + other + "/c.sqlite", "cloud", "sqlite://" + other + "/c.sqlite"),
            ("home", "CLOUDSYNC_HOME", other, "cloud", "sqlite://" + other + "/cloud.sqlite"),
        ]
        for source in Source.allCases {
            for (setting, variable, value, key, shown) in cases {
                let result = whoami(setting, variable, value, from: source)
                #expect(result.status == 0, "\(setting) from \(source): \(result.stderr)")
                #expect(try result.json()[key] == .string(shown), "\(setting) from \(source): \(result.stdout)")
            }
        }
        let text = BinaryRunner(home: home.path).run(["--environment", "production", "whoami"])
        #expect(text.stdout.contains("environment: production\n"), "\(text.stdout)")
    }

    @Test func everyBadValueIsRefusedAlikeFromEverySource() throws {
        let cases: [(String, String, String, String)] = [
            ("account", "CLOUDSYNC_ACCOUNT", "bad/name", "invalid account name 'bad/name'"),
            ("device", "CLOUDSYNC_DEVICE", "bad/name", "invalid device name 'bad/name'"),
            ("container", "CLOUDSYNC_CONTAINER", "com.example", "com.example"),
            ("environment", "CLOUDSYNC_ENVIRONMENT", "prod", "Did you mean 'production'?"),
            ("cloud", "CLOUDSYNC_CLOUD", "htp://example.com", "unsupported cloud URL scheme 'htp'"),
        ]
        for source in Source.allCases {
            for (setting, variable, value, message) in cases {
                let result = whoami(setting, variable, value, from: source)
                #expect(result.status == 64, "\(setting)=\(value) from \(source) should be refused: \(result.stdout)")
                #expect(result.stderr.contains(message), "\(setting) from \(source): \(result.stderr)")
                #expect(result.stderr.contains(where_(source, setting, variable)), "\(setting) from \(source): \(result.stderr)")
            }
        }
    }
}
