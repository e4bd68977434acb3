extension SettingSpec {
    /// The account to act as.
    public static let account = SettingSpec(
        "account", .value(placeholder: "name"), variable: "CLOUDSYNC_ACCOUNT", configKey: "account",
        defaultText: "'default'", help: "Act as this account.", variableHelp: "The account to act as.", exported: true)
    /// The device to act as.
    public static let device = SettingSpec(
        "device", .value(placeholder: "name"), variable: "CLOUDSYNC_DEVICE", configKey: "device",
        defaultText: "the short host name", help: "Act as this device of the account.",
        variableHelp: "The device to act as.", exported: true)
    /// The container.
    public static let container = SettingSpec(
        "container", .value(placeholder: "id"), variable: "CLOUDSYNC_CONTAINER", configKey: "container",
        defaultText: Settings.defaultContainer, help: "Use this container.", variableHelp: "The container.", exported: true)
    /// The container's environment.
    public static let environment = SettingSpec(
        "environment", .value(placeholder: "env"), variable: "CLOUDSYNC_ENVIRONMENT", configKey: "environment",
        defaultText: "development", help: "Use the container's development or production environment.",
        variableHelp: "development or production.", completion: .values(["development", "production"]), exported: true)
    /// The cloud URL.
    public static let cloud = SettingSpec(
        "cloud", .value(placeholder: "url"), variable: "CLOUDSYNC_CLOUD", configKey: "cloud",
        defaultText: "sqlite://<home>/cloud.sqlite",
        help: "The cloud to talk to, sqlite:///path, postgres://... or http(s)://HOST:PORT of 'cloudsync serve'.",
        variableHelp: "The cloud URL.", exported: true)
    /// The folder of local state.
    public static let home = SettingSpec(
        "home", .value(placeholder: "dir"), variable: "CLOUDSYNC_HOME", configKey: "home",
        defaultText: "$XDG_DATA_HOME/cloudsync", help: "Where local state lives.", completion: .file, exported: true)
    /// `--json`.
    public static let json = SettingSpec(
        "json", .flag, variable: "CLOUDSYNC_JSON",
        help: "Print JSON on stdout (NDJSON for streams) and JSON errors on stderr.",
        variableHelp: "Set (not empty or 0): as --json; plugins get 1 when --json is given.", exported: true)
    /// `-q/--quiet`.
    public static let quiet = SettingSpec(
        "quiet", .flag, short: "q", variable: "CLOUDSYNC_QUIET", help: "Print no progress chatter on stderr.",
        variableHelp: "Set (not empty or 0): as --quiet; plugins get 1 when --quiet is given.", exported: true)
    /// `--no-color`.
    public static let noColor = SettingSpec(
        "no-color", .flag, variable: "CLOUDSYNC_NO_COLOR", help: "Never color the output (NO_COLOR does the same).",
        variableHelp: "Set (not empty or 0): as --no-color; plugins get 1 when --no-color or NO_COLOR is given.",
        exported: true)
    /// The token for an http(s):// cloud.
    public static let token = SettingSpec(
        "token", .value(placeholder: "token"), isOption: false, variable: "CLOUDSYNC_TOKEN", configKey: "token",
        help: "The token sent to an http(s):// cloud (before the config file's token and 'cloudsync login').")
    /// Certificates for an https:// cloud.
    public static let caFile = SettingSpec(
        "ca-file", .value(placeholder: "file"), isOption: false, variable: "CLOUDSYNC_CA_FILE",
        help: "PEM certificates to trust for an https:// cloud instead of the system's.")
    /// The config file.
    public static let config = SettingSpec(
        "config", .value(placeholder: "file"), isOption: false, variable: "CLOUDSYNC_CONFIG",
        defaultText: "$XDG_CONFIG_HOME/cloudsync/config", help: "The config file.")
    /// Where plugins are found first.
    public static let execPath = SettingSpec(
        "exec-path", .value(placeholder: "dirs"), isOption: false, variable: "CLOUDSYNC_EXEC_PATH",
        help: "Colon-separated folders searched for cloudsync-<command> plugins before $PATH.")
    /// The REPL history file.
    public static let history = SettingSpec(
        "history", .value(placeholder: "file"), isOption: false, variable: "CLOUDSYNC_HISTORY",
        defaultText: "$XDG_STATE_HOME/cloudsync/history", help: "The REPL history file; /dev/null turns history off.")
    /// The sync passphrase.
    public static let passphrase = SettingSpec(
        "passphrase", .value(placeholder: "text"), isOption: false, variable: "CLOUDSYNC_PASSPHRASE",
        help: "The sync passphrase that unlocks the data key, instead of a no-echo prompt ('keys unlock', and any command that needs the key).")
    /// The new passphrase of `keys passphrase change`.
    public static let newPassphrase = SettingSpec(
        "new-passphrase", .value(placeholder: "text"), isOption: false, variable: "CLOUDSYNC_NEW_PASSPHRASE",
        help: "The new sync passphrase for 'keys passphrase change', instead of a prompt.")
    /// The password of an encrypted OTP backup.
    public static let importPassword = SettingSpec(
        "import-password", .value(placeholder: "text"), isOption: false, variable: "CLOUDSYNC_IMPORT_PASSWORD",
        help: "The password of an encrypted backup for 'otp import', instead of --password-file or a prompt.")
    /// The pager for help.
    public static let pager = SettingSpec(
        "pager", .value(placeholder: "command"), isOption: false, variable: "CLOUDSYNC_PAGER",
        defaultText: "$PAGER, else " + Pager.defaultCommand,
        help: "The pager for help on a terminal, as a shell command; empty or cat turns paging off. Piped help is never paged.")
    /// Seconds before `otp code --clip` clears the clipboard.
    public static let clipTime = SettingSpec(
        "clip-time", .value(placeholder: "seconds"), isOption: false, variable: "CLOUDSYNC_CLIP_TIME", defaultText: "45",
        help: "Seconds before 'otp code --clip' clears the clipboard, if it still holds the code.")
    /// The backoff of `sync --watch` and `subscribe listen --retry` without the cloud.
    public static let syncBackoff = SettingSpec(
        "sync-backoff", .value(placeholder: "initial,max"), isOption: false, variable: "CLOUDSYNC_SYNC_BACKOFF", defaultText: "1,60",
        help: "Seconds 'sync --watch' and 'subscribe listen --retry' wait after a failure, doubling with jitter from INITIAL up to MAX, at most 3600 (shorter values are for tests).")

    /// Every setting, in help order.
    public static let all: [SettingSpec] = [
        account, device, container, environment, cloud, home, json, quiet, noColor,
        token, caFile, config, execPath, history, passphrase, newPassphrase, importPassword, pager, clipTime,
        syncBackoff,
    ]
}
