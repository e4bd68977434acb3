import CloudSyncCLI
import CloudSyncCommands
import CloudSyncSession
import Testing

@Suite struct SettingsTests {
    func resolve(_ overrides: SettingsOverrides = SettingsOverrides(), _ environment: [String: String],
                 tty: Bool = false) throws -> (Settings, [String]) {
        var warnings: [String] = []
        let settings = try Settings.resolve(overrides: overrides, environment: environment, stdoutIsTTY: tty) {
            warnings.append($0)
        }
        return (settings, warnings)
    }

    func resolve(_ environment: [String: String], tty: Bool = false) throws -> (Settings, [String]) {
        try resolve(SettingsOverrides(), environment, tty: tty)
    }

    @Test func defaultsFollowXDGAndHome() throws {
        let home = TempDir()
        defer { home.remove() }
        let (settings, warnings) = try resolve(["HOME": home.path])
        #expect(warnings.isEmpty)
        #expect(settings.account == "default")
        #expect(settings.container == "iCloud.com.example.App")
        #expect(settings.home == home.path + "/.local/share/cloudsync")
        #expect(settings.cloudURL == "sqlite://" + home.path + "/.local/share/cloudsync/cloud.sqlite")
        #expect(settings.configPath == home.path + "/.config/cloudsync/config")
        #expect(settings.stateDirectory == home.path + "/.local/state/cloudsync")
        #expect(Settings.isValidName(settings.device))
        #expect(!settings.device.contains("."))

        let (xdg, _) = try resolve(["HOME": home.path, "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/conf",
                                    "XDG_STATE_HOME": "/state"])
        #expect(xdg.home == "/data/cloudsync")
        #expect(xdg.configPath == "/conf/cloudsync/config")
        #expect(xdg.stateDirectory == "/state/cloudsync")
        #expect(xdg.cloudURL == "sqlite:///data/cloudsync/cloud.sqlite")

        let (relativeXDG, _) = try resolve(["HOME": home.path, "XDG_DATA_HOME": "relative"])
        #expect(relativeXDG.home == home.path + "/.local/share/cloudsync")
    }

    @Test func precedenceFlagOverEnvironmentOverConfigOverDefault() throws {
        let home = TempDir()
        defer { home.remove() }
        home.write(".config/cloudsync/config", """
            # my settings
            account = fromconfig
            device = config-device
            container = iCloud.config
            ; the cloud
            cloud = sqlite:///config/cloud.sqlite
            home = ~/state-from-config
            """)
        let environment = ["HOME": home.path]
        let (config, warnings) = try resolve(environment)
        #expect(warnings.isEmpty)
        #expect(config.account == "fromconfig")
        #expect(config.device == "config-device")
        #expect(config.container == "iCloud.config")
        #expect(config.cloudURL == "sqlite:///config/cloud.sqlite")
        #expect(config.home == home.path + "/state-from-config")

        var withEnv = environment
        withEnv["CLOUDSYNC_ACCOUNT"] = "fromenv"
        withEnv["CLOUDSYNC_CONTAINER"] = "iCloud.env"
        withEnv["CLOUDSYNC_HOME"] = "/env/home"
        withEnv["CLOUDSYNC_DEVICE"] = ""   // empty counts as unset
        let (env, _) = try resolve(withEnv)
        #expect(env.account == "fromenv")
        #expect(env.container == "iCloud.env")
        #expect(env.home == "/env/home")
        #expect(env.device == "config-device")
        #expect(env.cloudURL == "sqlite:///config/cloud.sqlite")

        let (flag, _) = try resolve(SettingsOverrides(account: "fromflag", home: "/flag/home"), withEnv)
        #expect(flag.account == "fromflag")
        #expect(flag.home == "/flag/home")
        #expect(flag.container == "iCloud.env")
    }

    @Test func precedenceThroughTheDispatcher() {
        let home = TempDir()
        defer { home.remove() }
        let configPath = home.write("custom.conf", "account = fromconfig\ndevice = cfgdev\n")
        let recorder = Recorder()
        let registry = Toy.registry(recorder)
        var environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_CONFIG": configPath])

        #expect(invoke(registry, ["zone", "list"], environment: environment).status == 0)
        #expect(recorder.settings?.account == "fromconfig")
        #expect(recorder.settings?.device == "cfgdev")
        #expect(recorder.settings?.configPath == configPath)

        environment["CLOUDSYNC_ACCOUNT"] = "fromenv"
        #expect(invoke(registry, ["zone", "list"], environment: environment).status == 0)
        #expect(recorder.settings?.account == "fromenv")
        #expect(recorder.settings?.device == "cfgdev")

        #expect(invoke(registry, ["--account", "early", "zone", "list"], environment: environment).status == 0)
        #expect(recorder.settings?.account == "early")

        // The last occurrence wins, wherever it is.
        #expect(invoke(registry, ["--account", "early", "zone", "list", "--account=late"],
                       environment: environment).status == 0)
        #expect(recorder.settings?.account == "late")
    }

    @Test func homeDefaultsTheCloudURL() throws {
        let (settings, _) = try resolve(SettingsOverrides(home: "/srv/cs/"), ["HOME": "/nonexistent"])
        #expect(settings.cloudURL == "sqlite:///srv/cs/cloud.sqlite")
        let (explicit, _) = try resolve(SettingsOverrides(cloud: "postgres://db/x", home: "/srv/cs"),
                                        ["HOME": "/nonexistent"])
        #expect(explicit.cloudURL == "postgres://db/x")
        // The URL's path is percent-decoded: a '%' of the home is written %25 (and only it).
        #expect(Settings.defaultCloudURL(home: "/srv/100%/é") == "sqlite:///srv/100%25/é/cloud.sqlite")
        #expect(Settings.defaultCloudURL(home: "rel%%") == "sqlite:rel%25%25/cloud.sqlite")
    }

    @Test func configMistakesAreWarningsNamingFileAndLine() throws {
        let home = TempDir()
        defer { home.remove() }
        let path = home.write("config", """
            account = ok-name
            acount = typo
            this line is garbage
            [section]
            = novalue
            device =
            container = "iCloud.quoted" # trailing comment
            cloud = "unterminated
            home = "/h \\"x\\"" ; comment
            """)
        let (settings, warnings) = try resolve(["HOME": home.path, "CLOUDSYNC_CONFIG": path])
        #expect(settings.account == "ok-name")
        #expect(settings.container == "iCloud.quoted")
        #expect(settings.home == "/h \"x\"")
        #expect(warnings == [
            "\(path):2: ignoring unknown key 'acount' (did you mean 'account'?)",
            "\(path):3: ignoring a line that is not 'key = value'",
            "\(path):4: ignoring a line that is not 'key = value'",
            "\(path):5: ignoring a line without a key",
            "\(path):6: ignoring 'device': empty value",
            "\(path):8: ignoring 'cloud': unterminated quoted value",
        ])
    }

    @Test func configWarningsReachStderrButDoNotFail() {
        let home = TempDir()
        defer { home.remove() }
        let path = home.write(".config/cloudsync/config", "account = alice\nbogus = 1\n")
        let recorder = Recorder()
        let result = invoke(Toy.registry(recorder), ["zone", "list", "--json"], environment: baseEnvironment(home: home))
        #expect(result.status == 0)
        #expect(recorder.settings?.account == "alice")
        #expect(result.stderr == "cloudsync: warning: \(path):2: ignoring unknown key 'bogus'\n")
    }

    @Test func configThatIsNotARegularFileIsRefused() throws {
        let home = TempDir()
        defer { home.remove() }
        home.write("dir/placeholder", "")
        #expect(throws: CLIError.usage("the config file \(home.path)/dir is a folder, not a regular file")) {
            try resolve(["HOME": home.path, "CLOUDSYNC_CONFIG": home.path + "/dir"])
        }
        let (_, warnings) = try resolve(["HOME": home.path, "CLOUDSYNC_CONFIG": "/dev/null"])
        #expect(warnings.isEmpty, "/dev/null is an empty config")
    }

    @Test func dotNamesAndPathsAreNotAccountsOrDevices() {
        let home = TempDir()
        defer { home.remove() }
        for bad in [".", "..", "a/b", "", "tab\there", "nl\n"] {
            #expect(!Settings.isValidName(bad), "\(bad)")
            #expect(throws: CLIError.self) { try resolve(SettingsOverrides(account: bad), ["HOME": home.path]) }
            #expect(throws: CLIError.self) { try resolve(SettingsOverrides(device: bad), ["HOME": home.path]) }
        }
        #expect(throws: CLIError.self) { try resolve(["HOME": home.path, "CLOUDSYNC_DEVICE": ".."]) }
        #expect(Settings.isValidName("...") && Settings.isValidName(".hidden") && Settings.isValidName("a..b"))
    }

    @Test func containersMustBeICloudIdentifiersFromEverySource() {
        let home = TempDir()
        defer { home.remove() }
        for good in ["iCloud.com.example.App", "iCloud.test", "iCloud.a-b_c.D9"] {
            #expect(throws: Never.self) { try resolve(SettingsOverrides(container: good), ["HOME": home.path]) }
        }
        for bad in ["../../../../tmp/x", "iCloud.../x", "iCloud.a/b", "iCloud.", "iCloud..a", "iCloud.a.", "c",
                    "com.example.App", "iCloud.a b", "iCloud.é", "iCloud.a\u{1B}]0;x", String(repeating: "a", count: 300)] {
            #expect(throws: CLIError.self) { try resolve(SettingsOverrides(container: bad), ["HOME": home.path]) }
            #expect(throws: CLIError.self) { try resolve(["HOME": home.path, "CLOUDSYNC_CONTAINER": bad]) }
        }
        let path = home.write("config", "container = ../escape\n")
        do {
            _ = try resolve(["HOME": home.path, "CLOUDSYNC_CONFIG": path])
            Issue.record("a config container escaping the home was accepted")
        } catch {
            #expect("\(error)".contains("\(path):1"))
        }
    }

    @Test func cloudURLsNeedAKnownScheme() throws {
        // The URL check is the session layer's and the forms are the backends', all registered at
        // the composition root; register them here rather than depend on another test of this
        // process having done so.
        CommandTable.registerBackends()
        let home = TempDir()
        defer { home.remove() }
        for good in ["sqlite:///tmp/c.sqlite", "sqlite:rel/c.sqlite", "postgres://h/db", "postgresql://h/db",
                     "http://h", "https://h"] {
            #expect(throws: Never.self) { try resolve(SettingsOverrides(cloud: good), ["HOME": home.path]) }
        }
        for bad in ["foo", "garbage", "/abs/c.sqlite", "nope://x", "sqlite://relative", "sqlite:", "ftp://h/x", "c:/x"] {
            #expect(throws: CLIError.self) { try resolve(SettingsOverrides(cloud: bad), ["HOME": home.path]) }
            #expect(throws: CLIError.self) { try resolve(["HOME": home.path, "CLOUDSYNC_CLOUD": bad]) }
        }
        let path = home.write("config", "cloud = garbage\n")
        #expect(throws: CLIError.self) { try resolve(["HOME": home.path, "CLOUDSYNC_CONFIG": path]) }
        // A relative or %-holding home still makes a default the parser reads back.
        let (relative, _) = try resolve(["HOME": home.path, "CLOUDSYNC_HOME": "rel/home"])
        #expect(relative.cloudURL == "sqlite:rel/home/cloud.sqlite")
        let (percent, _) = try resolve(["HOME": home.path, "CLOUDSYNC_HOME": "/a%20b"])
        #expect(percent.cloudURL == "sqlite:///a%2520b/cloud.sqlite")
    }

    @Test func invalidNamesAreUsageErrors() {
        let home = TempDir()
        defer { home.remove() }
        #expect(throws: CLIError.self) { try resolve(SettingsOverrides(account: "has space"), ["HOME": home.path]) }
        #expect(throws: CLIError.self) { try resolve(SettingsOverrides(device: String(repeating: "a", count: 65)), ["HOME": home.path]) }
        #expect(throws: CLIError.self) { try resolve(SettingsOverrides(account: ""), ["HOME": home.path]) }
        #expect(throws: Never.self) { try resolve(SettingsOverrides(account: "a.b-c_d@e", device: "X9"), ["HOME": home.path]) }

        let result = invoke(Toy.registry(), ["--device", "bad/name", "zone", "list"], environment: baseEnvironment(home: home))
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("cloudsync: error: invalid device name 'bad/name' (from --device)"))

        home.write(".config/cloudsync/config", "\naccount = no way\n")
        let fromConfig = invoke(Toy.registry(), ["zone", "list"], environment: baseEnvironment(home: home))
        #expect(fromConfig.status == 64)
        #expect(fromConfig.stderr.contains("invalid account name 'no way' (from \(home.path)/.config/cloudsync/config:2)"))
    }

    @Test func nameRules() {
        #expect(Settings.isValidName("alice@example.com"))
        #expect(Settings.isValidName(String(repeating: "x", count: 64)))
        #expect(!Settings.isValidName(String(repeating: "x", count: 65)))
        #expect(!Settings.isValidName(""))
        #expect(!Settings.isValidName("é"))
        #expect(!Settings.isValidName("a:b"))
    }

    @Test func colorOnlyOnATerminalWithoutNoColor() throws {
        let environment = ["HOME": "/nonexistent"]
        #expect(try resolve(environment, tty: true).0.color)
        #expect(try !resolve(environment, tty: false).0.color)
        #expect(try !resolve(SettingsOverrides(noColor: true), environment, tty: true).0.color)
        #expect(try !resolve(["HOME": "/x", "NO_COLOR": "1"], tty: true).0.color)
        #expect(try resolve(["HOME": "/x", "NO_COLOR": ""], tty: true).0.color)
        #expect(try !resolve(["HOME": "/x", "TERM": "dumb"], tty: true).0.color)
    }

    @Test func environmentComesFromFlagEnvironmentConfigOrDefault() throws {
        let home = TempDir()
        defer { home.remove() }
        #expect(try resolve(["HOME": home.path]).0.environment == .development)
        home.write(".config/cloudsync/config", "environment = production\n")
        #expect(try resolve(["HOME": home.path]).0.environment == .production)
        #expect(try resolve(["HOME": home.path, "CLOUDSYNC_ENVIRONMENT": "development"]).0.environment == .development)
        #expect(try resolve(SettingsOverrides(environment: "development"), ["HOME": home.path, "CLOUDSYNC_ENVIRONMENT": "production"])
                    .0.environment == .development)
        // One validation whatever the source (issue 30): an abbreviation is refused everywhere.
        #expect(throws: CLIError.self) { try resolve(SettingsOverrides(environment: "dev"), ["HOME": home.path]) }
        #expect(throws: CLIError.self) { try resolve(["HOME": home.path, "CLOUDSYNC_ENVIRONMENT": "prod"]) }
        #expect(throws: CLIError.self) { try resolve(SettingsOverrides(environment: "staging"), ["HOME": home.path]) }
        #expect(throws: CLIError.self) { try resolve(["HOME": home.path, "CLOUDSYNC_ENVIRONMENT": "qa"]) }
    }

    @Test func exportedEnvironmentNamesTheContext() {
        let settings = Settings(account: "a", device: "d", container: "c", home: "/h")
        #expect(settings.exportedEnvironment() == [
            "CLOUDSYNC_ACCOUNT": "a", "CLOUDSYNC_DEVICE": "d", "CLOUDSYNC_CONTAINER": "c",
            "CLOUDSYNC_CLOUD": "sqlite:///h/cloud.sqlite", "CLOUDSYNC_HOME": "/h", "CLOUDSYNC_ENVIRONMENT": "development",
        ])
    }
}
