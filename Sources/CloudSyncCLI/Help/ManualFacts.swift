/// The program-wide facts of the manual: exit statuses, environment variables and files. The
/// EXIT STATUS, ENVIRONMENT and FILES sections of every man page and of `cloudsync help` are
/// rendered from these lists, so the terminal and the man pages say the same.
public enum ManualFacts {
    /// One entry of a definition list: the term (a status, variable or path) and its meaning.
    public struct Entry: Sendable, Hashable {
        /// The status, variable name or path.
        public var term: String
        /// One or two sentences.
        public var text: String
    }

    /// Every exit status, in numeric order.
    public static var exitStatuses: [Entry] {
        ExitCode.allCases.map { Entry(term: String($0.rawValue), text: meaning(of: $0)) }
    }

    /// What an exit status means (exhaustive, so a new status must be documented here).
    public static func meaning(of code: ExitCode) -> String {
        switch code {
        case .ok: "Success."
        case .failure: "The operation failed."
        case .notFound: "The zone, record or other item does not exist."
        case .conflict: "A conflict: the server holds a newer change tag, or the item already exists."
        case .usage: "The command line, or a setting from the environment or the config file, is wrong."
        case .dataError: "The input data is wrong (a malformed value, file or JSON document)."
        case .unavailable: "The cloud cannot be reached."
        case .internalError: "An internal error: a bug or an unexpected condition."
        case .ioError: "A local file or folder (the home, a state file, an output file) cannot be created, read or written."
        case .tempFailure: "A temporary failure (rate limited, zone busy); try again later."
        case .permissionDenied: "Permission denied."
        }
    }

    /// The environment variables cloudsync reads: the settings' variables (`SettingSpec.all`), then those of other programs that cloudsync honours.
    public static let environment: [Entry] = SettingSpec.all.compactMap(\.manualEntry) + [
        Entry(term: "PAGER", text: "The pager for help when CLOUDSYNC_PAGER is not set."),
        Entry(term: "XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_STATE_HOME",
              text: "Base folders for data, config and state (default ~/.local/share, ~/.config, ~/.local/state)."),
        Entry(term: "NO_COLOR", text: "If set and not empty, the output is never colored."),
        Entry(term: "INPUTRC",
              text: "The readline key bindings the REPL reads (default ~/.inputrc); its application name is cloudsync."),
    ]

    /// The files cloudsync reads and writes.
    public static let files: [Entry] = [
        Entry(term: "$CLOUDSYNC_HOME/cloud.sqlite",
              text: "The embedded cloud, shared by every device on this machine."),
        Entry(term: "$CLOUDSYNC_HOME/devices/<account>/<device>.sqlite",
              text: "One device's cached records and change tokens (mode 0600, folders 0700)."),
        Entry(term: "$CLOUDSYNC_HOME/devices/<account>/public/<device>.sqlite",
              text: "One device's public store: the record types of the public database it mirrors (store sync --database public)."),
        Entry(term: "$XDG_CONFIG_HOME/cloudsync/config",
              text: "The config file: 'key = value' lines for account, device, container, cloud, home and token."),
        Entry(term: "$XDG_STATE_HOME/cloudsync/logins/",
              text: "Tokens stored by 'cloudsync login URL', one file per server (mode 0600, folder 0700)."),
        Entry(term: "$XDG_STATE_HOME/cloudsync/history",
              text: "The REPL history, at most \(ReplHistory.maximumEntries) lines (mode 0600, folder 0700)."),
    ]
}
