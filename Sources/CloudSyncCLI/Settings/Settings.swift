import CloudSyncCore

/// The resolved global context of one invocation: which account, device and container it acts
/// as, where the cloud and the local state are, and how to print. Built by `Settings.resolve`
/// with the precedence flag > environment > config file > defaults.
public struct Settings: Sendable, Hashable {
    /// The account name (`--account`, `CLOUDSYNC_ACCOUNT`, config `account`, default `default`).
    public var account: String
    /// Where `account` came from, for `whoami`: `--account`, `$CLOUDSYNC_ACCOUNT`, the config
    /// file's line, or the token of a server (`AccountFromCredential`); nil for the default.
    public var accountSource: String?
    /// The device name (`--device`, `CLOUDSYNC_DEVICE`, config `device`, default: short host name).
    public var device: String
    /// The container identifier (`--container`, `CLOUDSYNC_CONTAINER`, config `container`).
    public var container: String
    /// The environment (`--environment`, `CLOUDSYNC_ENVIRONMENT`, config `environment`, default
    /// development): which of the container's two separate data sets and schemas to use.
    public var environment: CloudEnvironment
    /// The cloud URL (`--cloud`, `CLOUDSYNC_CLOUD`, config `cloud`, default
    /// `sqlite://<home>/cloud.sqlite`).
    public var cloudURL: String
    /// Where `cloudURL` came from (`--cloud`, `$CLOUDSYNC_CLOUD`, the config file's line), nil
    /// for the default cloud in `home`: an explicit SQLite cloud that does not exist is an error
    /// (a typo must not make a new cloud), the default one is made on first use.
    public var cloudSource: String?
    /// The folder of local state (`--home`, `CLOUDSYNC_HOME`, config `home`, default
    /// `$XDG_DATA_HOME/cloudsync`, i.e. `~/.local/share/cloudsync`).
    public var home: String
    /// The config file that was consulted (it may not exist).
    public var configPath: String
    /// The folder for state that is not data, such as REPL history
    /// (`$XDG_STATE_HOME/cloudsync`, i.e. `~/.local/state/cloudsync`).
    public var stateDirectory: String
    /// `--json`: machine output on stdout, JSON errors on stderr.
    public var json: Bool
    /// `-q/--quiet`: no chatter on stderr.
    public var quiet: Bool
    /// Whether to use ANSI colors: stdout is a terminal and neither `--no-color` nor `NO_COLOR`.
    public var color: Bool
    /// `--no-color` was given or `NO_COLOR` is set: the user asked for no colors, whatever the
    /// terminal (exported to plugins as `CLOUDSYNC_NO_COLOR`).
    public var noColor: Bool

    /// The default account name.
    public static let defaultAccount = "default"
    /// The default container identifier.
    public static let defaultContainer = "iCloud.com.example.App"

    /// Builds settings directly, for tests; the CLI uses `resolve`.
    public init(account: String = Settings.defaultAccount, device: String,
                container: String = Settings.defaultContainer, environment: CloudEnvironment = .development,
                cloudURL: String? = nil, home: String,
                configPath: String = "", stateDirectory: String = "", json: Bool = false,
                quiet: Bool = false, color: Bool = false, noColor: Bool = false, accountSource: String? = nil,
                cloudSource: String? = nil) {
        self.account = account
        self.accountSource = accountSource
        self.device = device
        self.container = container
        self.environment = environment
        self.cloudURL = cloudURL ?? Settings.defaultCloudURL(home: home)
        self.cloudSource = cloudSource
        self.home = home
        self.configPath = configPath
        self.stateDirectory = stateDirectory
        self.json = json
        self.quiet = quiet
        self.color = color
        self.noColor = noColor
    }

    /// The context as `CLOUDSYNC_*` variables, for plugins and child processes: the exported
    /// value settings of `SettingSpec.all` (`CLOUDSYNC_ACCOUNT`, `CLOUDSYNC_DEVICE`,
    /// `CLOUDSYNC_CONTAINER`, `CLOUDSYNC_ENVIRONMENT`, `CLOUDSYNC_CLOUD`, `CLOUDSYNC_HOME`).
    public func exportedEnvironment() -> [String: String] {
        var exported: [String: String] = [:]
        for setting in SettingSpec.all where setting.exported {
            if case .value = setting.kind, let variable = setting.variable, let value = value(of: setting) {
                exported[variable] = value
            }
        }
        return exported
    }

    /// The environment of a plugin (`cloudsync-<name>`): `base` with the context of
    /// `exportedEnvironment()` and the exported flags of `SettingSpec.all` (`CLOUDSYNC_JSON`,
    /// `CLOUDSYNC_QUIET`, `CLOUDSYNC_NO_COLOR`), each `1` when set and absent otherwise (an
    /// inherited value from an outer invocation is removed); `--no-color` also sets `NO_COLOR=1`.
    public func pluginEnvironment(base: [String: String]) -> [String: String] {
        var environment = base.merging(exportedEnvironment()) { $1 }
        for setting in SettingSpec.all where setting.exported && setting.kind == .flag {
            guard let variable = setting.variable else { continue }
            environment[variable] = value(of: setting) == nil ? nil : "1"
        }
        if noColor && (environment["NO_COLOR"] ?? "").isEmpty { environment["NO_COLOR"] = "1" }
        return environment
    }

    /// The resolved value of a setting of the context (`"1"` for a flag that is on), or nil for
    /// one that is off or is not part of `Settings`.
    public func value(of setting: SettingSpec) -> String? {
        switch setting.name {
        case SettingSpec.account.name: account
        case SettingSpec.device.name: device
        case SettingSpec.container.name: container
        case SettingSpec.environment.name: environment.rawValue
        case SettingSpec.cloud.name: cloudURL
        case SettingSpec.home.name: home
        case SettingSpec.json.name: json ? "1" : nil
        case SettingSpec.quiet.name: quiet ? "1" : nil
        case SettingSpec.noColor.name: noColor ? "1" : nil
        default: nil
        }
    }

    /// Where this device's state for the environment lives: `home` for development (as before
    /// environments existed), `<home>/production` for production, so that a device's cache,
    /// change tokens, local store and data key never mix the two environments' data.
    public var environmentHome: String {
        environment == .development ? home : home + (home.hasSuffix("/") ? "" : "/") + "production"
    }

    /// The embedded cloud in `home`: `sqlite://<home>/cloud.sqlite` (`sqlite:<home>/…` for a
    /// relative home; `%` written as `%25`, since the URL's path is percent-decoded).
    public static func defaultCloudURL(home: String) -> String {
        var path = home + (home.hasSuffix("/") ? "" : "/") + "cloud.sqlite"
        // Every start resolves this: a plain loop, not split/joined, whose generic types the
        // runtime would instantiate first (measurable in `otp code`).
        if path.utf8.contains(UInt8(ascii: "%")) {
            var escaped = ""
            for character in path.unicodeScalars {
                if character == "%" { escaped += "%25" } else { escaped.unicodeScalars.append(character) }
            }
            path = escaped
        }
        return (path.hasPrefix("/") ? "sqlite://" : "sqlite:") + path
    }

    /// True if `name` is a valid account or device name: 1-64 ASCII letters, digits, `.`, `-`,
    /// `_` or `@`, and not `.` or `..` (names are file names under the home).
    public static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.allSatisfy(isNameCharacter) && name != "." && name != ".."
    }

    static func isNameCharacter(_ c: Character) -> Bool {
        (c.isASCII && (c.isLetter || c.isNumber)) || c == "." || c == "-" || c == "_" || c == "@"
    }
}
