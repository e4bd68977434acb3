import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync login URL`: keeps the token of a `cloudsync serve` for `--cloud URL`.
public enum LoginCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "login",
        abstract: "Store the token of a cloudsync server (read from stdin or asked).",
        discussion: """
            Reads the token from stdin when it is not a terminal, else asks for it without echo, \
            checks it with the server (users/current) and stores it (mode 0600) under the state \
            folder for that URL, with the account it is for. Commands with --cloud URL then send \
            it and, without --account, act as that account; CLOUDSYNC_TOKEN and the config file's \
            token = … come first.

            Exit status: 77 when the server refuses the token, 69 when no server answers at URL; \
            nothing is stored then.
            """,
        arguments: [ArgumentSpec("url", help: "The server, http://HOST:PORT or https://HOST:PORT.")],
        examples: [Example("echo \"$TOKEN\" | cloudsync login http://server:8080", "Store a token.")],
        jsonOutput: ServeJSONOutput.login,
        run: { context, arguments in
            let url = arguments.argument("url") ?? ""
            guard (try? CloudLocator(parsing: url))?.isWebServicesServer == true else {
                throw CLIError.usage("login takes a server URL, http://HOST:PORT or https://HOST:PORT; \(NameRules.quoted(url)) is not one")
            }
            var token: String?
            if isatty(STDIN_FILENO) != 0 {
                token = Prompt.secret("Token for \(url): ", output: context.output)
            } else if let line = readLine(strippingNewline: true) {
                token = line
            }
            let trimmed = (token ?? "").filter { !$0.isWhitespace }
            guard !trimmed.isEmpty else { throw CLIError.usage("no token given (on stdin or at the prompt)") }
            guard trimmed.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }), trimmed.utf8.count <= 256 else {
                throw CLIError.badInput("that is not a token (printable ASCII, at most 256 characters)")
            }
            let base = CommandContext.normalizedServerURL(url)
            let account = try checkedAccount(base, token: trimmed, context: context)
            try context.storeLogin(StoredLogin(token: trimmed, account: account), for: base)
            if !context.output.isJSON { context.output.line("logged in to \(base) as \(account)") }
        })

    /// The account `token` is for, asked of the server; its errors in the user's words.
    static func checkedAccount(_ url: String, token: String, context: CommandContext) throws -> String {
        let caFile = context.environment["CLOUDSYNC_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            return try AccountFromCredential.ask(url, token: token, container: context.settings.container, caFile: caFile)
        } catch {
            switch error.code {
            case .notAuthenticated, .permissionFailure:
                throw CloudError(.notAuthenticated, "\(url) refused the token (\(error.reason)); nothing was stored")
            case .networkUnavailable:
                // The client's reason names the URL already ("cannot reach the cloud at URL: …").
                let why = error.reason.contains(url) ? error.reason : "no server answers at \(url) (\(error.reason))"
                throw CloudError(.networkUnavailable, "\(why); nothing was stored")
            default:
                throw CloudError(error.code, "\(url) could not check the token: \(error.reason); nothing was stored")
            }
        }
    }
}
