import CloudSyncCLI
import TestSupport
import Testing

/// `SettingSpec.all` is the one table of settings: the global options, the config keys, the
/// plugin exports, resolution and the manual's ENVIRONMENT section all come from it.
@Suite("The settings table")
struct SettingsTableTests {
    static let packageFolder: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    /// `CLOUDSYNC_*` names in the sources that are not settings, and why.
    static let notSettings: [String: String] = [
        "CLOUDSYNC_": "the prefix itself",
        "CLOUDSYNC_CLIP_CODE": "handed to the clipboard-clearing child, never read from the user",
        "CLOUDSYNC_FAULTS": "a test hook of 'serve' (fault injection)",
        "CLOUDSYNC_CALL_LOG": "a test hook of 'serve' (call log)",
        "CLOUDSYNC_FAULT_DELAY_MS": "a test hook of 'serve' (slows every data call to fill the request gate)",
        "CLOUDSYNC_NOTIFICATION_JSON": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_NOTIFICATION_ID": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_NOTIFICATION_TYPE": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_SUBSCRIPTION_ID": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_DATABASE": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_ZONE": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_RECORD_NAME": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_RECORD_TYPE": "set for 'subscribe listen --exec' commands",
        "CLOUDSYNC_REASON": "set for 'subscribe listen --exec' commands",
    ]

    @Test func everyVariableTheSourcesNameIsASettingInTheManual() {
        let found = ProcessSpawner.run("/bin/sh", ["-c", "grep -rhoE '\"CLOUDSYNC_[A-Z_]*\"' \"$1/Sources\" | sort -u", "sh", Self.packageFolder],
                                       environment: ["PATH": "/usr/bin:/bin"], stdin: "")
        let names = Set(found.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: "\"") })
        #expect(names.count > 20, "scanned \(Self.packageFolder): \(names)")
        let table = Set(SettingSpec.all.compactMap(\.variable))
        let documented = Set(ManualFacts.environment.map(\.term))
        for name in names.sorted() where Self.notSettings[name] == nil {
            #expect(table.contains(name), "\(name) is read but is not in SettingSpec.all")
            #expect(documented.contains(name), "\(name) is not in the ENVIRONMENT section")
        }
        #expect(table.contains("CLOUDSYNC_PASSPHRASE"))
    }

    @Test func optionsConfigKeysAndExportsComeFromTheTable() {
        let settingOptions = SettingSpec.all.compactMap(\.option).map(\.long)
        #expect(GlobalOptions.all.map(\.long) == settingOptions + ["help", "version"])
        #expect(ConfigFile.keys == SettingSpec.all.compactMap(\.configKey))
        #expect(GlobalOptions.option(long: "account")?.help == "Act as this account (env CLOUDSYNC_ACCOUNT; default 'default').")
        let settings = Settings(account: "a", device: "d", home: "/h", json: true)
        let exported = settings.pluginEnvironment(base: ["PATH": "/bin"])
        #expect(exported["CLOUDSYNC_ACCOUNT"] == "a" && exported["CLOUDSYNC_JSON"] == "1" && exported["CLOUDSYNC_QUIET"] == nil)
        #expect(Set(settings.exportedEnvironment().keys) == Set(SettingSpec.all.filter {
            $0.exported && $0.kind != .flag
        }.compactMap(\.variable)))
    }

    @Test func theFlagVariablesResolveLikeTheirFlags() throws {
        func resolve(_ environment: [String: String]) throws -> Settings {
            try Settings.resolve(overrides: SettingsOverrides(), environment: ["HOME": "/x"].merging(environment) { $1 },
                                 stdoutIsTTY: true) { _ in }
        }
        #expect(try resolve(["CLOUDSYNC_JSON": "1"]).json)
        #expect(try resolve(["CLOUDSYNC_QUIET": "true"]).quiet)
        #expect(try !resolve(["CLOUDSYNC_QUIET": "0"]).quiet)
        #expect(try !resolve(["CLOUDSYNC_JSON": ""]).json)
        let noColor = try resolve(["CLOUDSYNC_NO_COLOR": "1"])
        #expect(noColor.noColor && !noColor.color)
    }

    @Test func theBinaryHonoursCLOUDSYNC_JSON() throws {
        let home = TemporaryDirectory("settings-table")
        let cli = BinaryRunner(home: home.path)
        let result = cli.run(["whoami"], env: ["CLOUDSYNC_JSON": "1", "CLOUDSYNC_DEVICE": "laptop"])
        #expect(result.status == 0)
        #expect(try result.json()["device"] == .string("laptop"))
        let manual = cli.run(["help", "--json"])
        #expect(manual.stdout.contains("CLOUDSYNC_JSON"))
    }
}

extension Substring {
    func replacingOccurrences(of target: Character) -> String { String(filter { $0 != target }) }
}
