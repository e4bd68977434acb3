import CloudSyncCore

/// The global options as given on the command line, before resolution.
public struct SettingsOverrides: Sendable, Hashable {
    /// `--account`.
    public var account: String?
    /// `--device`.
    public var device: String?
    /// `--container`.
    public var container: String?
    /// `--environment`.
    public var environment: String?
    /// `--cloud`.
    public var cloud: String?
    /// `--home`.
    public var home: String?
    /// `--json`.
    public var json: Bool
    /// `-q/--quiet`.
    public var quiet: Bool
    /// `--no-color`.
    public var noColor: Bool

    /// Overrides as given on the command line; nil means not given.
    public init(account: String? = nil, device: String? = nil, container: String? = nil, cloud: String? = nil,
                home: String? = nil, json: Bool = false, quiet: Bool = false, noColor: Bool = false,
                environment: String? = nil) {
        self.account = account
        self.device = device
        self.container = container
        self.environment = environment
        self.cloud = cloud
        self.home = home
        self.json = json
        self.quiet = quiet
        self.noColor = noColor
    }

    /// The global options of `parsed`; a command table whose root lacks one (a test's) leaves it unset.
    init(_ parsed: ParsedArguments) {
        func value(_ name: String) -> String? { parsed.declares(name) ? parsed.value(name) : nil }
        func flag(_ name: String) -> Bool { parsed.declares(name) && parsed.flag(name) }
        self.init(account: value("account"), device: value("device"),
                  container: value("container"), cloud: value("cloud"), home: value("home"),
                  json: flag("json"), quiet: flag("quiet"), noColor: flag("no-color"),
                  environment: value("environment"))
    }
}

extension Settings {
    /// Resolves the global context: flag > environment (`CLOUDSYNC_*`) > config file > defaults,
    /// with the names of `SettingSpec.all`; the flags `--json`, `--quiet` and `--no-color` are
    /// also on when their variable is set (not empty or `0`).
    ///
    /// The config file is `$CLOUDSYNC_CONFIG`, else `$XDG_CONFIG_HOME/cloudsync/config`, else
    /// `~/.config/cloudsync/config`. Its problems are passed to `warning` (one line each,
    /// without the `cloudsync: warning:` prefix). Empty environment variables count as unset.
    /// - Throws: `CLIError.usage` for an invalid account or device name, container identifier or
    ///   cloud URL, or an empty value.
    public static func resolve(overrides: SettingsOverrides, environment: [String: String], stdoutIsTTY: Bool,
                               warning: (String) -> Void) throws(CLIError) -> Settings {
        func env(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        func xdg(_ name: String, _ fallback: String) -> String {
            if let value = env(name), value.hasPrefix("/") { return value }
            return fallback
        }
        let userHome = SystemInfo.homeDirectory(environment: environment)
        let base = userHome.hasSuffix("/") ? String(userHome.dropLast()) : userHome
        let dataHome = xdg("XDG_DATA_HOME", base + "/.local/share")
        let configHome = xdg("XDG_CONFIG_HOME", base + "/.config")
        let stateHome = xdg("XDG_STATE_HOME", base + "/.local/state")
        let configPath = env("CLOUDSYNC_CONFIG") ?? configHome + "/cloudsync/config"
        let config = ConfigFile.load(path: configPath)
        if let refusal = config.refusal { throw .usage(refusal) }
        for message in config.warnings { warning(message) }

        /// The winning value and a phrase naming where it came from, checked by the setting's
        /// one validation (`SettingSpec.validate`) whatever its source.
        func pick(_ flag: String?, _ setting: SettingSpec) throws(CLIError) -> (String, String)? {
            var picked: (String, String)?
            if let flag {
                picked = (flag, "--\(setting.name)")
            } else if let variable = setting.variable, let value = env(variable) {
                picked = (value, "$\(variable)")
            } else if let key = setting.configKey, let entry = config.entries[key] {
                picked = (entry.value, "\(configPath):\(entry.line)")
            }
            if let (value, source) = picked { try setting.validate(value, from: source) }
            return picked
        }
        let pickedAccount = try pick(overrides.account, .account)
        let account = pickedAccount?.0 ?? defaultAccount
        let device = try pick(overrides.device, .device)?.0 ?? SystemInfo.shortHostName()
        let container = try pick(overrides.container, .container)?.0 ?? defaultContainer
        var cloudEnvironment = CloudEnvironment.development
        if let (value, _) = try pick(overrides.environment, .environment),
           let parsed = CloudEnvironment(rawValue: value) {
            cloudEnvironment = parsed
        }
        var home = try pick(overrides.home, .home)?.0 ?? dataHome + "/cloudsync"
        if home == "~" {
            home = base
        } else if home.hasPrefix("~/") {
            home = base + home.dropFirst()
        }
        let pickedCloud = try pick(overrides.cloud, .cloud)
        let cloud = pickedCloud?.0 ?? defaultCloudURL(home: home)
        if pickedCloud == nil { try SettingSpec.cloud.validate(cloud, from: "the default under \(home)") }
        let noColorEnv = (environment["NO_COLOR"].map { !$0.isEmpty } ?? false) || SettingSpec.noColor.isOn(in: environment)
        let noColor = overrides.noColor || noColorEnv
        let color = stdoutIsTTY && !noColor && environment["TERM"] != "dumb"
        return Settings(account: account, device: device, container: container, environment: cloudEnvironment,
                        cloudURL: cloud, home: home,
                        configPath: configPath, stateDirectory: stateHome + "/cloudsync",
                        json: overrides.json || SettingSpec.json.isOn(in: environment),
                        quiet: overrides.quiet || SettingSpec.quiet.isOn(in: environment), color: color, noColor: noColor,
                        accountSource: pickedAccount?.1, cloudSource: pickedCloud?.1)
    }
}
