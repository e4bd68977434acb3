import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncOTP

/// `otp code [QUERY]`: the current code (and the seconds it has left), offline.
enum OTPCode {
    static let spec = CommandSpec(
        name: "code", abstract: "Print the current code of a token, or of every time-based token.",
        discussion: """
            Without a QUERY, prints the code of every TOTP and Steam token. With one, prints that \
            token's code and how many seconds it has left; --quiet prints the code alone (for \
            scripts), --next N the N codes that follow. A QUERY that matches several tokens \
            prints each one's code with its name, as 'ykman oath accounts code' does (time-based \
            tokens only); --exact refuses it instead. An HOTP token's code uses its stored \
            counter, which then advances by one (RFC 4226 §7.2).

            --clip copies the code instead of printing it, with wl-copy (Wayland), xclip or xsel, \
            whichever is on $PATH (exit 69 when none is), and clears the clipboard after \
            $CLOUDSYNC_CLIP_TIME seconds (45 by default) if it still holds the code, as 'pass' does.
            """,
        options: [
            OptionSpec("at", value: "TIME", help: "The code at TIME (ISO 8601, @epoch-seconds or epoch milliseconds) instead of now."),
            OptionSpec("next", value: "N", help: "Also print the N codes that follow."),
            OptionSpec("exact", help: "Refuse a QUERY that matches more than one token instead of printing each one's code."),
            OptionSpec("clip", short: "c", help: "Copy the code to the clipboard (cleared after 45 s) instead of printing it."),
        ],
        arguments: [ArgumentSpec("query", help: "Name, issuer, issuer:account or part of one.", optional: true,
                                 completion: .otpName)],
        examples: [
            Example("cloudsync otp code github", "492039  (17 s left)"),
            Example("cloudsync otp code github -q", "The code alone, for scripts."),
            Example("cloudsync otp code github --clip", "Copy the code; the clipboard is cleared after 45 s."),
            Example("cloudsync otp code github --at 2038-01-19T03:14:08Z --next 2", "Codes after 2038."),
        ],
        jsonOutput: OTPJSONOutput.code,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        var next = 0
        if let text = arguments.value("next") {
            guard let n = Int(text), (0...100).contains(n) else { throw CLIError.usage("--next takes 0 to 100, got '\(text)'") }
            next = n
        }
        // Found (or refused, 69) before anything is computed or an HOTP counter advances.
        let clipboard = arguments.flag("clip") ? try Clipboard.find(environment: context.environment) : nil
        let clearSeconds = clipboard == nil ? 0 : try Clipboard.clearSeconds(environment: context.environment)
        if clipboard != nil && arguments.argument("query") == nil {
            throw CLIError.usage("--clip needs a QUERY naming one token")
        }
        let store = try OTPCommand.tokens(context, briefly: true)
        guard let query = arguments.argument("query") else {
            try all(context, store: store, at: try OTPCommand.time(arguments), next: next)
            return
        }
        // The label index is matched once: an ambiguous QUERY prints every match (unless
        // --exact or --clip), anything else resolves from the same answer.
        let found = try store.find(query)
        if case .ambiguous = found, !arguments.flag("exact") && clipboard == nil {
            let matched = try OTPCommand.matches(query, in: store, found: found)
            if matched.count > 1 {
                try all(context, store: store, at: try OTPCommand.time(arguments), next: next, only: matched)
                return
            }
        }
        let stored = try OTPCommand.resolve(query, in: store, found: found)
        let token = stored.token
        if token.kind == .hotp {
            if arguments.value("at") != nil { throw CLIError.usage("--at is for time-based tokens; '\(token.name)' is HOTP") }
            try hotp(context, store: store, stored: stored, next: next,
                     clip: clipboard.map { ($0, clearSeconds) })
            return
        }
        let ms = try OTPCommand.time(arguments)
        guard let step = token.step(atUnixSeconds: ms / 1000) else { throw CLIError.usage("no codes before 1970") }
        let period = Int64(token.period)
        let validUntil = (Int64(step) + 1) * period * 1000
        let secondsLeft = (validUntil - ms + 999) / 1000
        var codes: [String] = []
        for offset in 0...UInt64(next) { codes.append(token.code(factor: step + offset)) }
        let out = context.output
        if let clipboard {
            try copy(codes[0], of: token.name, with: clipboard, clearingAfter: clearSeconds, context)
        }
        if out.isJSON {
            var pairs = nameFields(stored)
            pairs += [("code", .string(codes[0])), ("step", .int(Int64(step))),
                      ("validFrom", .int(Int64(step) * period * 1000)), ("validUntil", .int(validUntil)),
                      ("secondsLeft", .int(secondsLeft))]
            if next > 0 {
                pairs.append(("next", .array((1...next).map { index in
                    .object([("code", .string(codes[index])), ("validFrom", .int((Int64(step) + Int64(index)) * period * 1000)),
                             ("validUntil", .int((Int64(step) + Int64(index) + 1) * period * 1000))])
                })))
            }
            out.json(.object(pairs))
        } else if clipboard != nil {
            return
        } else if context.settings.quiet {
            out.write(.text(lines(codes)))
        } else {
            var text = "\(codes[0])  (\(secondsLeft) s left)\n"
            for index in stride(from: 1, through: next, by: 1) {
                text += "\(codes[index])  (in \(secondsLeft + Int64(index - 1) * period) s)\n"
            }
            out.write(.text(text))
        }
    }

    /// Each string followed by a newline. Written out because the standard library's
    /// `joined()` is not specialized for `[String]`: its first call looks up an associated
    /// type at run time, which scans every protocol conformance record of the executable
    /// (about 4 % of the instructions of `otp code`).
    static func lines(_ items: [String]) -> String {
        var text = ""
        for item in items {
            text += item
            text += "\n"
        }
        return text
    }

    /// An HOTP code: the stored counter's, after which the counter advances and is saved. The
    /// counters shown must all lie below `OTPToken.maximumCounter` (else 65, nothing saved), and
    /// the output is made before the counter is saved.
    static func hotp(_ context: CommandContext, store: OTPTokenStore, stored: StoredToken, next: Int,
                     clip: (Clipboard, Int)? = nil) throws {
        let token = stored.token
        let counters: ClosedRange<UInt64>
        do { counters = try token.usableCounters(next + 1) } catch { throw CLIError.badInput(error.description) }
        let shown = counters.map { (counter: $0, code: token.code(factor: $0)) }
        let out = context.output
        var document: JSONValue?
        var text = ""
        if out.isJSON {
            var pairs = nameFields(stored)
            pairs += [("code", .string(shown[0].code)), ("counter", .int(Int64(shown[0].counter)))]
            if next > 0 {
                pairs.append(("next", .array(shown.dropFirst().map {
                    .object([("code", .string($0.code)), ("counter", .int(Int64($0.counter)))])
                })))
            }
            document = .object(pairs)
        } else if clip != nil {
            text = ""
        } else if context.settings.quiet {
            text = lines(shown.map(\.code))
        } else {
            text = lines(shown.map { "\($0.code)  (counter \($0.counter))" })
        }
        var advanced = stored
        advanced.token.counter = counters.lowerBound + 1
        try store.update(advanced, from: token, now: OTPCommand.nowMilliseconds())
        if let (clipboard, seconds) = clip {
            try copy(shown[0].code, of: token.name, with: clipboard, clearingAfter: seconds, context)
        }
        if let document { out.json(document) } else { out.write(.text(text)) }
    }

    /// Every time-based token's code (HOTP tokens are left out: showing one uses it up).
    /// `only`: the tokens a QUERY matched, instead of every token.
    static func all(_ context: CommandContext, store: OTPTokenStore, at ms: Int64, next: Int, only: [StoredToken]? = nil) throws {
        let tokens = try (only ?? store.all { name, error in context.output.warning("token record \(name) is unusable: \(error)") })
            .filter { $0.token.kind.isTimeBased }
        var rows: [[String]] = []
        var items: [JSONValue] = []
        for stored in tokens {
            let token = stored.token
            guard let step = token.step(atUnixSeconds: ms / 1000) else { throw CLIError.usage("no codes before 1970") }
            let validUntil = (Int64(step) + 1) * Int64(token.period) * 1000
            let left = (validUntil - ms + 999) / 1000
            let codes = (0...next).map { token.code(factor: step + UInt64($0)) }
            rows.append([token.name, codes.joined(separator: " "), "\(left) s"])
            items.append(.object(nameFields(stored) + [("code", .string(codes[0])), ("validUntil", .int(validUntil)),
                                                       ("secondsLeft", .int(left))]
                                 + (next > 0 ? [("next", .array(codes.dropFirst().map { .string($0) }))] : [])))
        }
        if context.output.isJSON {
            context.output.json(.object([("codes", .array(items))]))
        } else if context.settings.quiet {
            context.output.write(.text(lines(rows.map { "\(TerminalEscaping.escapeValue($0[0]))\t\($0[1])" })))
        } else if rows.isEmpty {
            context.output.line("No time-based tokens. Add one with 'cloudsync otp add'.")
        } else {
            context.output.table(["NAME", "CODE", "LEFT"], rows)
        }
    }

    /// `--clip`: copies the code, leaves the clearing child and says so on stdout (unless
    /// --quiet or --json, whose document is printed as without --clip).
    static func copy(_ code: String, of name: String, with clipboard: Clipboard, clearingAfter seconds: Int,
                     _ context: CommandContext) throws {
        try clipboard.copy(code)
        try clipboard.scheduleClear(of: code, after: seconds)
        if !context.output.isJSON && !context.settings.quiet {
            context.output.line("copied the code of \(name) to the clipboard with \(clipboard.tool.rawValue); it is cleared in \(seconds) s")
        }
    }

    static func nameFields(_ stored: StoredToken) -> [(String, JSONValue)] {
        [("name", .string(stored.token.name)), ("issuer", .string(stored.token.issuer)),
         ("account", .string(stored.token.account)), ("type", .string(stored.token.kind.rawValue))]
    }
}
