import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncOTP
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync otp`: a 2FA code manager (HOTP, TOTP, Steam) over the device's local store, with
/// opt-in sync of seed 000: tokens stay on this device until `otp sync on`, and their secrets
/// and labels only ever reach the cloud encrypted.
public enum OTPCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "otp",
        abstract: "Manage 2FA tokens (TOTP, HOTP, Steam) and sync them between devices.",
        discussion: """
            Keeps 2FA tokens in this device's local store, as OTPToken records in the zone \
            com.apple.coredata.cloudkit.zone, and makes their codes offline: HOTP (RFC 4226), TOTP \
            (RFC 6238) with SHA1, SHA256 or SHA512, 6 to 8 digits and any period, and Steam Guard \
            codes. Secrets are never taken from the command line: 'otp add' reads them from a \
            no-echo prompt, stdin or --secret-file.

            A QUERY finds a token: the exact name, issuer:account or issuer wins, then the same \
            ignoring case, then a case-insensitive part of the name, issuer or account. A query \
            that fits several tokens lists them and exits 1; one that fits none exits 3.

            Sync is off until turned on ('otp sync on', the account-wide flag that 'store sync on' \
            sets too). The secret, name, issuer, account and note are encrypted on the device \
            with the account's data key before they leave it, so the sync passphrase \
            (CLOUDSYNC_PASSPHRASE, or a prompt) is needed to sync. When devices disagree about an \
            HOTP counter, the higher one wins: a counter never goes back.
            """,
        examples: [
            Example("cloudsync otp add --issuer GitHub --account-name alice", "Add a token; the secret is asked without echo."),
            Example("cloudsync otp code github", "The current code and the seconds it has left."),
            Example("cloudsync otp import aegis-export.json", "Import an Aegis vault (plain or encrypted)."),
            Example("cloudsync otp sync on", "Sync tokens between this account's devices."),
        ],
        // Built one at a time, when a command line reaches it: `otp code` builds only its own.
        registered: [
            .init(name: "add") { OTPAdd.spec }, .init(name: "code") { OTPCode.spec },
            .init(name: "verify") { OTPVerify.spec }, .init(name: "list") { OTPManage.list },
            .init(name: "show") { OTPManage.show }, .init(name: "rename") { OTPManage.rename },
            .init(name: "remove") { OTPManage.remove }, .init(name: "import") { OTPImport.spec },
            .init(name: "export") { OTPExport.spec }, .init(name: "sync") { OTPSync.spec },
        ])

    /// The argument every lookup takes.
    static let queryArgument = ArgumentSpec("query", help: "Name, issuer, issuer:account or part of one.", completion: .otpName)

    /// The token store of this invocation's device (offline: no cloud is opened).
    /// `briefly`: the command is short and only reads (or bumps one counter), so the device file
    /// may be held exclusively while it runs when nothing else has it open (a faster open).
    static func tokens(_ context: CommandContext, briefly: Bool = false) throws -> OTPTokenStore {
        OTPTokenStore(store: try context.deviceStore(briefly: briefly), container: context.settings.container,
                      device: context.settings.device)
    }

    /// Milliseconds since the epoch.
    static func nowMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// The last second `--at` accepts: 9999-12-31T23:59:59Z. Step and validity times (up to a
    /// day-long period and 100 steps on) then stay far inside 64-bit milliseconds.
    static let latestSeconds: Int64 = 253_402_300_799

    /// `--at`: any form of `TimeInput` (ISO 8601, `@epoch-seconds`, epoch milliseconds), 1970
    /// to 9999; now when absent.
    static func time(_ arguments: ParsedArguments) throws -> Int64 {
        guard let text = arguments.value("at") else { return nowMilliseconds() }
        guard let ms = TimeInput.milliseconds(from: text) else {
            throw CLIError.usage("--at takes \(TimeInput.forms), got '\(text)'")
        }
        guard ms >= 0 else { throw CLIError.usage("--at must not be before 1970") }
        guard ms <= latestSeconds * 1000 + 999 else { throw CLIError.usage("--at must not be after the year 9999") }
        return ms
    }

    /// The one token `query` means, or the exit a lookup ends with: 3 for none, 1 with the
    /// candidates for several.
    /// `found`: what `store.find(query)` already answered, so the label index is matched once.
    static func resolve(_ query: String, in store: OTPTokenStore, found: OTPQueryResult<OTPLabelIndex.Entry>? = nil,
                        retried: Bool = false) throws -> StoredToken {
        switch try found ?? store.find(query) {
        case .match(let entry):
            switch try store.token(recordName: entry.recordName) {
            case .success(let stored)?:
                return stored
            case .failure(let error)?:
                throw CLIError.badInput("token '\(entry.labels.name)': \(error.description)")
            case nil:
                // The index named a record that is gone: rebuild it and look again.
                try store.dropLabelIndex()
                guard !retried else { throw CLIError.internalError("the token index of this device is inconsistent") }
                return try resolve(query, in: store, retried: true)
            }
        case .none:
            throw CLIError.notFound("no token matches '\(query)'; 'cloudsync otp list' shows them all")
        case .ambiguous(let entries):
            let names = entries.map { describe($0.labels) }.sorted()
            throw CLIError.failed("'\(query)' matches \(names.count) tokens; be more precise: "
                                  + names.map { "'\($0)'" }.joined(separator: ", "))
        }
    }

    /// Every token `query` matches (see `OTPQuery`): one for a match, all of them when it is
    /// ambiguous; not found (3) when none.
    /// `found`: what `store.find(query)` already answered, so the label index is matched once.
    static func matches(_ query: String, in store: OTPTokenStore,
                        found: OTPQueryResult<OTPLabelIndex.Entry>? = nil) throws -> [StoredToken] {
        let found = try found ?? store.find(query)
        switch found {
        case .match:
            return [try resolve(query, in: store, found: found)]
        case .none:
            throw CLIError.notFound("no token matches '\(query)'; 'cloudsync otp list' shows them all")
        case .ambiguous(let entries):
            var tokens: [StoredToken] = []
            for entry in entries {
                if case .success(let stored)? = try store.token(recordName: entry.recordName) { tokens.append(stored) }
            }
            return tokens.sorted { ($0.token.name.lowercased(), $0.recordName) < ($1.token.name.lowercased(), $1.recordName) }
        }
    }

    /// A token without its secret, as JSON.
    static func json(_ stored: StoredToken) -> JSONValue {
        let t = stored.token
        var pairs: [(String, JSONValue)] = [("name", .string(t.name)), ("issuer", .string(t.issuer)), ("account", .string(t.account)),
                                            ("type", .string(t.kind.rawValue)), ("algorithm", .string(t.algorithm.rawValue)),
                                            ("digits", .int(Int64(t.digits)))]
        if t.kind == .hotp {
            pairs.append(("counter", .int(Int64(t.counter))))
        } else {
            pairs.append(("period", .int(Int64(t.period))))
        }
        if !t.note.isEmpty { pairs.append(("note", .string(t.note))) }
        pairs.append(("recordName", .string(stored.recordName)))
        return .object(pairs)
    }

    /// `totp SHA1 6 digits 30 s`, for lists.
    static func summary(_ token: OTPToken) -> String {
        switch token.kind {
        case .steam: "steam"
        case .totp: "totp \(token.algorithm.rawValue) \(token.digits) digits \(token.period) s"
        case .hotp: "hotp \(token.algorithm.rawValue) \(token.digits) digits counter \(token.counter)"
        }
    }
}

/// `name (issuer:account)` when the two differ, for lists of candidates.
func describe(_ labels: OTPQuery.Labels) -> String {
    let label = [labels.issuer, labels.account].filter { !$0.isEmpty }.joined(separator: ":")
    return label.isEmpty || label == labels.name ? labels.name : "\(labels.name) (\(label))"
}
