import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncOTP
#if canImport(Glibc)
import Glibc
#endif

/// `otp list`, `otp show`, `otp rename`, `otp remove`.
enum OTPManage {
    static let list = CommandSpec(
        name: "list", abstract: "List the tokens of this device (without secrets), or those a QUERY matches.",
        arguments: [ArgumentSpec("query", help: "Name, issuer, issuer:account or part of one, as 'otp code' matches.",
                                 optional: true, completion: .otpName)],
        examples: [Example("cloudsync otp list --json", "As JSON."),
                   Example("cloudsync otp list google", "The tokens 'otp code google' would show.")],
        jsonOutput: OTPJSONOutput.list,
        run: { context, arguments in
            let store = try OTPCommand.tokens(context)
            let tokens: [StoredToken]
            if let query = arguments.argument("query") {
                tokens = try OTPCommand.matches(query, in: store)
            } else {
                tokens = try store.all { name, error in
                    context.output.warning("token record \(name) is unusable: \(error)")
                }
            }
            if context.output.isJSON {
                context.output.json(.object([("tokens", .array(tokens.map(OTPCommand.json)))]))
            } else if tokens.isEmpty {
                context.output.line("No tokens. Add one with 'cloudsync otp add' or 'cloudsync otp import'.")
            } else {
                context.output.table(["NAME", "ISSUER", "ACCOUNT", "TYPE"],
                                     tokens.map { [$0.token.name, $0.token.issuer, $0.token.account, OTPCommand.summary($0.token)] })
            }
        })

    static let show = CommandSpec(
        name: "show", abstract: "Show a token; --uri reveals its otpauth:// URI with the secret, --qr draws it.",
        options: [OptionSpec("uri", help: "Print the otpauth:// URI, secret included."),
                  OptionSpec("qr", help: "Draw the URI as a QR code to scan with a phone.")],
        arguments: [OTPCommand.queryArgument],
        examples: [Example("cloudsync otp show github --uri | pass otp insert github", "Move a token to pass-otp.")],
        jsonOutput: OTPJSONOutput.show,
        run: { context, arguments in
            guard let query = arguments.argument("query") else { throw CLIError.usage("which token? give a QUERY") }
            let stored = try OTPCommand.resolve(query, in: try OTPCommand.tokens(context))
            let token = stored.token
            let reveal = arguments.flag("uri") || arguments.flag("qr")
            let uri = OTPAuthURI.format(token)
            if reveal { OTPExport.warnIfTerminal(context) }
            if context.output.isJSON {
                var json = OTPCommand.json(stored)
                if reveal, case .object(var pairs) = json { pairs.append(("uri", .string(uri))); json = .object(pairs) }
                context.output.json(json)
                return
            }
            if arguments.flag("qr") {
                context.output.writeVerbatim(QRRenderer.render(try QRMatrix.encode(uri), ansi: OTPExport.ansi(context)))
            }
            if arguments.flag("uri") {
                context.output.line(.value(uri))
            } else if !arguments.flag("qr") {
                var rows = [["name", token.name], ["issuer", token.issuer], ["account", token.account],
                            ["type", token.kind.rawValue], ["algorithm", token.algorithm.rawValue], ["digits", String(token.digits)]]
                rows.append(token.kind == .hotp ? ["counter", String(token.counter)] : ["period", "\(token.period) s"])
                if !token.note.isEmpty { rows.append(["note", token.note]) }
                rows.append(["record", stored.recordName])
                context.output.table([], rows)
            }
        })

    static let rename = CommandSpec(
        name: "rename", abstract: "Give a token another name.",
        arguments: [OTPCommand.queryArgument, ArgumentSpec("new-name", help: "The new name.")],
        examples: [
            Example("cloudsync otp rename github 'GitHub (work)'", "Rename the token that github matches."),
        ],
        jsonOutput: OTPJSONOutput.rename,
        run: { context, arguments in
            guard let query = arguments.argument("query"), let newName = arguments.argument("new-name")?.trimmingSpaces() else {
                throw CLIError.usage("give the token's QUERY and its NEW-NAME")
            }
            let store = try OTPCommand.tokens(context)
            let stored = try OTPCommand.resolve(query, in: store)
            var renamed = stored
            renamed.token.name = newName
            do { try renamed.token.validate() } catch { throw CLIError.usage("\(error)") }
            if try store.all().contains(where: { $0.token.name == newName && $0.recordName != stored.recordName }) {
                throw CLIError.conflict("a token named '\(newName)' exists")
            }
            try store.update(renamed, from: stored.token, now: OTPCommand.nowMilliseconds())
            if context.output.isJSON {
                context.output.json(OTPCommand.json(renamed))
            } else {
                context.output.line("renamed '\(stored.token.name)' to '\(newName)'")
            }
        })

    static let remove = CommandSpec(
        name: "remove", abstract: "Remove tokens (asks first on a terminal; --yes otherwise).",
        discussion: """
            A removed token cannot make codes any more: make sure the account has another way in \
            (recovery codes, another token) first. With sync on, the removal reaches every device.
            """,
        options: [OptionSpec("yes", short: "y", help: "Do not ask.")],
        arguments: [ArgumentSpec("query", help: "Name, issuer, issuer:account or part of one.", repeating: true,
                                 completion: .otpName)],
        examples: [
            Example("cloudsync otp remove github --yes", "Remove the token that github matches, without asking."),
        ],
        jsonOutput: OTPJSONOutput.remove,
        run: { context, arguments in
            let queries = arguments.arguments("query")
            guard !queries.isEmpty else { throw CLIError.usage("which token? give a QUERY") }
            let store = try OTPCommand.tokens(context)
            var targets: [StoredToken] = []
            for query in queries {
                let stored = try OTPCommand.resolve(query, in: store)
                if !targets.contains(where: { $0.recordName == stored.recordName }) { targets.append(stored) }
            }
            if !arguments.flag("yes") {
                guard context.isInteractive else { throw CLIError.usage("removing tokens needs confirmation: add --yes") }
                let names = targets.map { "'\($0.token.name)'" }.joined(separator: ", ")
                guard Prompt.confirm("Remove \(names)? Its codes cannot be made afterwards. [y/N] ", output: context.output) else {
                    Prompt.declined("kept \(names) (nothing removed)", output: context.output)
                    return
                }
            }
            let now = OTPCommand.nowMilliseconds()
            for target in targets {
                try store.remove(recordName: target.recordName, now: now)
                if !context.output.isJSON { context.output.line("removed '\(target.token.name)'") }
            }
            if context.output.isJSON {
                context.output.json(.object([("tokens", .array(targets.map {
                    .object([("name", .string($0.token.name)), ("recordName", .string($0.recordName)), ("deleted", .bool(true))])
                }))]))
            }
        })
}
