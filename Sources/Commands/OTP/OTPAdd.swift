import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncCrypto
import CloudSyncOTP

/// `otp add [NAME]`: store a token from a base32 secret or an otpauth:// URI.
enum OTPAdd {
    static let spec = CommandSpec(
        name: "add", abstract: "Add a token; the secret comes from a prompt, stdin or a file, never the command line.",
        discussion: """
            Reads a base32 secret (any case, spaces allowed, padding optional) or a whole \
            otpauth:// URI: from --secret-file FILE ('-' for stdin), else with a no-echo prompt on \
            a terminal, else from stdin. Options override what a URI says. --generate makes a new \
            random secret instead (for a service you set up yourself; 'otp show NAME --uri' or \
            'otp export NAME --qr' then hands it over).

            The name defaults to issuer:account; the issuer and account are what --issuer and \
            --account-name (or the URI) say, and a NAME alone sets neither. Secrets shorter than 80 bits or not base32 are \
            refused, as is a second token with the same name or the same secret.
            """,
        options: [
            OptionSpec("issuer", value: "ISSUER", help: "The service (GitHub)."),
            OptionSpec("account-name", value: "ACCOUNT",
                       help: "The account at the service (alice@example.com). (--account chooses the cloudsync account.)"),
            OptionSpec("type", value: "TYPE", help: "totp (default), hotp or steam.", completion: .values(["totp", "hotp", "steam"])),
            OptionSpec("algorithm", value: "ALG", help: "SHA1 (default), SHA256 or SHA512.",
                       completion: .values(["SHA1", "SHA256", "SHA512"])),
            OptionSpec("digits", value: "N", help: "Code length, 6 (default) to 8."),
            OptionSpec("period", value: "SECONDS", help: "TOTP step length (default 30)."),
            OptionSpec("counter", value: "N", help: "HOTP: the next counter to use (default 0)."),
            OptionSpec("note", value: "TEXT", help: "Free text kept with the token."),
            OptionSpec("secret-file", value: "FILE", help: "Read the secret or URI from FILE ('-' for stdin).", completion: .file),
            OptionSpec("generate", help: "Make a new random secret instead of reading one."),
        ],
        arguments: [ArgumentSpec("name", help: "The name to call it by (default issuer:account).", optional: true)],
        examples: [
            Example("cloudsync otp add --issuer GitHub --account-name alice", "Asks for the secret without echo."),
            Example("pass show github-otp | cloudsync otp add", "Reads an otpauth:// URI from stdin."),
            Example("cloudsync otp add vpn --type hotp --secret-file vpn.key", "An HOTP token from a file."),
        ],
        jsonOutput: OTPJSONOutput.add,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        if arguments.flag("generate") && arguments.value("secret-file") != nil {
            throw CLIError.usage("--generate makes the secret; leave out --secret-file")
        }
        var token: OTPToken
        if arguments.flag("generate") {
            let algorithm = try arguments.value("algorithm").map { name throws(CLIError) -> HashFunction in
                do { return try HashFunction(otpName: name) } catch { throw CLIError.usage("\(error)") }
            } ?? .sha1
            token = OTPToken(secret: SecureRandom.bytes(algorithm.digestSize), algorithm: algorithm)
        } else {
            let input = try OTPInput.secret(context, file: arguments.value("secret-file")).trimmingSpaces()
            do {
                if input.lowercased().hasPrefix("otpauth://") {
                    token = try OTPAuthURI.parse(input)
                } else {
                    token = OTPToken(secret: try Base32.decode(input))
                }
            } catch {
                throw CLIError.badInput(error.description)
            }
        }
        let fromURI = !token.name.isEmpty
        try apply(arguments, to: &token)
        if let name = arguments.argument("name") {
            token.name = name.trimmingSpaces()
        } else if !fromURI || arguments.value("issuer") != nil || arguments.value("account-name") != nil {
            token.name = token.defaultName
        }
        if token.name.isEmpty {
            throw CLIError.usage("give the token a NAME, an --issuer or an --account-name")
        }
        do {
            try token.validate()
        } catch {
            throw CLIError.badInput(error.description)
        }
        let store = try OTPCommand.tokens(context)
        for existing in try store.all() {
            if existing.token.name == token.name {
                throw CLIError.conflict("a token named '\(token.name)' exists; choose another NAME or 'otp rename' it")
            }
            if existing.token.makesSameCodes(as: token) {
                throw CLIError.conflict("the same token is stored as '\(existing.token.name)'")
            }
        }
        let stored = try store.add(token, now: OTPCommand.nowMilliseconds())
        if context.output.isJSON {
            context.output.json(OTPCommand.json(stored))
        } else {
            context.output.line("added '\(token.name)' (\(OTPCommand.summary(token)))")
            if arguments.flag("generate") {
                context.output.info("hand the new secret to the service with 'cloudsync otp show \(token.name) --uri' or 'cloudsync otp export \(token.name) --qr'")
            }
        }
    }

    /// The options of add, checked: usage errors for values out of range.
    static func apply(_ arguments: ParsedArguments, to token: inout OTPToken) throws {
        if let issuer = arguments.value("issuer") { token.issuer = issuer.trimmingSpaces() }
        if let account = arguments.value("account-name") { token.account = account.trimmingSpaces() }
        if let note = arguments.value("note") { token.note = note }
        if let type = arguments.value("type") {
            guard let kind = OTPKind(rawValue: type.lowercased()) else { throw CLIError.usage("--type is totp, hotp or steam, not '\(type)'") }
            token.kind = kind
        }
        if let name = arguments.value("algorithm"), !arguments.flag("generate") {
            do { token.algorithm = try HashFunction(otpName: name) } catch { throw CLIError.usage("\(error)") }
        }
        if let text = arguments.value("digits") {
            guard let n = Int(text), (6...8).contains(n) else { throw CLIError.usage("--digits must be 6 to 8, got '\(text)'") }
            token.digits = n
        }
        if let text = arguments.value("period") {
            guard let n = Int(text), (1...86_400).contains(n) else { throw CLIError.usage("--period must be 1 to 86400 seconds, got '\(text)'") }
            token.period = n
        }
        if let text = arguments.value("counter") {
            guard let n = UInt64(text), n < OTPToken.maximumCounter else {
                throw CLIError.usage("--counter must be a whole number from 0 to \(OTPToken.maximumCounter - 1) (a stored counter is a signed 64-bit integer, and the counter after a code must fit), got '\(text)'")
            }
            token.counter = n
        }
        if token.kind == .hotp {
            if arguments.value("period") != nil { throw CLIError.usage("--period is for time-based tokens; HOTP counts with --counter") }
            token.period = OTPToken.defaultPeriod
        } else if arguments.value("counter") != nil {
            throw CLIError.usage("--counter is for HOTP tokens (--type hotp)")
        }
        if token.kind == .steam {
            if arguments.value("digits") != nil || arguments.value("algorithm") != nil {
                throw CLIError.usage("Steam tokens always make 5-character SHA1 codes; leave out --digits and --algorithm")
            }
            token.digits = 5
            token.algorithm = .sha1
        } else if token.digits == 5 {
            token.digits = 6
        }
    }
}

extension String {
    /// Without leading and trailing whitespace.
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
