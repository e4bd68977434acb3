import CloudSyncCLI
import CloudSyncCore
import CloudSyncOTP
#if canImport(Glibc)
import Glibc
#endif

/// `otp export`: tokens out, as otpauth:// URIs, an Aegis plain vault or Google migration URIs,
/// as text or QR codes.
enum OTPExport {
    static let spec = CommandSpec(
        name: "export", abstract: "Export tokens, secrets included, as otpauth:// URIs, an Aegis vault or QR codes.",
        discussion: """
            Writes every token (or those the QUERYs name) to stdout or --output FILE (created \
            readable by you only). Formats: uri (default; one otpauth:// URI per line, what \
            'pass otp', oathtool users and most apps read), aegis (an unencrypted Aegis vault; \
            importing it back gives the same tokens) and migration (Google Authenticator's \
            otpauth-migration:// transfer URIs; Steam tokens and periods other than 30 s do not \
            fit and are left out with a warning). --qr draws each URI as a QR code to scan with a \
            phone. The output holds your secrets: keep it safe and delete it when done.
            """,
        options: [
            OptionSpec("format", value: "FORMAT", help: "uri (default), aegis or migration.",
                       completion: .values(["uri", "aegis", "migration"])),
            OptionSpec("qr", help: "Draw each URI as a QR code (uri and migration formats)."),
            OptionSpec("output", short: "o", value: "FILE", help: "Write to FILE (mode 0600) instead of stdout.", completion: .file),
        ],
        arguments: [ArgumentSpec("query", help: "Export only these tokens (default: all).", optional: true, repeating: true,
                                 completion: .otpName)],
        examples: [
            Example("cloudsync otp export -o tokens.txt", "Every token as otpauth:// URIs."),
            Example("cloudsync otp export --format aegis -o aegis.json", "A vault Aegis imports."),
            Example("cloudsync otp export github --qr", "Scan it into a phone app."),
        ],
        jsonOutput: OTPJSONOutput.export,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let format = arguments.value("format") ?? "uri"
        let qr = arguments.flag("qr")
        if qr && format == "aegis" { throw CLIError.usage("--qr draws URIs; use --format uri or migration") }
        let store = try OTPCommand.tokens(context)
        var tokens: [StoredToken]
        let queries = arguments.arguments("query")
        if queries.isEmpty {
            tokens = try store.all { name, error in context.output.warning("token record \(name) is unusable: \(error)") }
        } else {
            tokens = []
            for query in queries {
                let stored = try OTPCommand.resolve(query, in: store)
                if !tokens.contains(where: { $0.recordName == stored.recordName }) { tokens.append(stored) }
            }
        }
        let output = arguments.value("output")
        if output == nil { warnIfTerminal(context) }
        var items: [(label: String, text: String)] = []
        switch format {
        case "uri":
            items = tokens.map { ($0.token.name, OTPAuthURI.format($0.token)) }
        case "migration":
            let (uris, left) = GoogleMigration.format(tokens.map(\.token))
            for token in left {
                context.output.warning("'\(token.name)' does not fit Google's format (Steam, 7 digits or a period other than 30 s); left out")
            }
            items = uris.enumerated().map { ("Google Authenticator batch \($0.offset + 1) of \(uris.count)", $0.element) }
        case "aegis":
            items = [("", AegisVault.export(tokens.map(\.token)).prettyPrinted())]
        default:
            throw CLIError.usage("unknown format '\(format)'; use uri, aegis or migration")
        }
        if context.output.isJSON {
            // One JSON document: the Aegis vault as it is, the URIs as {tokens: [{name, uri}]}.
            if qr { throw CLIError.usage("--qr draws codes for people; leave out --json") }
            let document: JSONValue = format == "aegis" ? AegisVault.export(tokens.map(\.token))
                : .object([("tokens", .array(items.map { .object([("name", .string($0.label)), ("uri", .string($0.text))]) }))])
            if let output {
                // --json is about stdout: the file holds the format as without it.
                try OTPInput.writePrivate(output, items.map { $0.text + "\n" }.joined())
                context.output.json(.object([("path", .string(output)), ("tokens", .int(Int64(tokens.count)))]))
            } else {
                context.output.json(document)
            }
            return
        }
        var text = ""
        if qr {
            let ansi = output == nil && ansi(context)
            for item in items {
                text += TerminalEscaping.escapeValue(item.label) + "\n" + QRRenderer.render(try QRMatrix.encode(item.text), ansi: ansi) + "\n"
            }
        } else {
            text = items.map { $0.text + "\n" }.joined()
        }
        if let output {
            try OTPInput.writePrivate(output, text)
            // The result on stdout; the caution is a note (stderr).
            if !context.output.isJSON { context.output.line("wrote \(tokens.count) tokens to \(output)") }
            context.output.info("\(output) holds the secrets: delete it when done")
        } else if qr {
            context.output.writeVerbatim(text)
        } else {
            context.output.write(.text(text))
        }
    }

    /// On a terminal, a reminder that secrets are on the screen.
    static func warnIfTerminal(_ context: CommandContext) {
        if context.output.isTTY {
            context.output.warning("this shows secrets: anyone who sees them can make your codes")
        }
    }

    /// Whether QR codes get their colors pinned (on a terminal, unless colors are off).
    static func ansi(_ context: CommandContext) -> Bool {
        context.output.isTTY && context.environment["NO_COLOR"] == nil
    }
}
