import CloudSyncCLI
import CloudSyncCore
import CloudSyncOTP

/// `otp import FILE`: tokens in from URIs, Google's transfer export, Aegis, 2FAS, andOTP,
/// Bitwarden or Proton Authenticator.
enum OTPImport {
    static let spec = CommandSpec(
        name: "import", abstract: "Import tokens from otpauth URIs, Google Authenticator, Aegis, 2FAS, andOTP, Bitwarden or Proton.",
        discussion: """
            Reads FILE ('-' for stdin) and detects its format: otpauth:// URIs one per line ('#' \
            comment lines allowed); \
            Google Authenticator's otpauth-migration:// export (one URI per QR code; give every \
            batch); an Aegis vault export, plain or password-encrypted; a 2FAS .2fas backup \
            without password; an andOTP plain JSON backup; a Bitwarden plain JSON export (the \
            login items' TOTP); a Proton Authenticator JSON export. The password of an encrypted vault \
            comes from --password-file, CLOUDSYNC_IMPORT_PASSWORD or a no-echo prompt.

            Tokens that make the same codes as a stored one (or an earlier one in the file) are \
            skipped and counted; a name already taken gets ' (2)'. Every broken entry is \
            reported on its own line and the good ones are still imported; the exit status is \
            then 65. A file that cannot be read at all (damaged, wrong password) changes nothing \
            and exits 65.
            """,
        options: [
            OptionSpec("format", value: "FORMAT", help: "Skip detection: uri, aegis, 2fas, andotp, bitwarden or proton.",
                       completion: .values(ImportFormat.allCases.map(\.rawValue))),
            OptionSpec("password-file", value: "FILE", help: "The password of an encrypted Aegis vault.", completion: .file),
            OptionSpec("dry-run", short: "n", help: "Report what would be imported; store nothing."),
        ],
        arguments: [ArgumentSpec("file", help: "The export file, or - for stdin.", completion: .file)],
        examples: [
            Example("cloudsync otp import aegis-backup.json", "Asks for the vault password if it is encrypted."),
            Example("zbarimg -q --raw transfer.png | cloudsync otp import -", "Google Authenticator's transfer QR code."),
        ],
        jsonOutput: OTPJSONOutput.`import`,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard let path = arguments.argument("file") else { throw CLIError.usage("give the FILE to import ('-' for stdin)") }
        var format: ImportFormat?
        if let name = arguments.value("format") {
            guard let chosen = ImportFormat(rawValue: name.lowercased()) else {
                throw CLIError.usage("unknown format '\(name)'; use uri, aegis, 2fas, andotp, bitwarden or proton")
            }
            format = chosen
        }
        let bytes = try OTPInput.read(path)
        guard let detected = format ?? ImportReader.detect(bytes) else {
            throw CLIError.badInput("\(path): " + ImportReader.unrecognized(bytes))
        }
        var password: String?
        if ImportReader.needsPassword(bytes, format: detected) {
            password = try OTPInput.importPassword(context, file: arguments.value("password-file"), stdinTaken: path == "-")
        }
        let contents: ImportContents
        do {
            contents = try ImportReader.read(bytes, format: detected, password: password)
        } catch {
            throw CLIError.badInput("\(path): \(error.description)")
        }

        let store = try OTPCommand.tokens(context)
        var known = try store.all().map(\.token)
        var takenNames = Set(known.map(\.name))
        var imported: [OTPToken] = []
        var duplicates: [(OTPToken, String)] = []
        for var token in contents.tokens {
            if let same = known.first(where: { $0.makesSameCodes(as: token) }) {
                duplicates.append((token, same.name))
                continue
            }
            if takenNames.contains(token.name) {
                let base = token.name
                var n = 2
                while takenNames.contains("\(base) (\(n))") { n += 1 }
                token.name = "\(base) (\(n))"
            }
            known.append(token)
            takenNames.insert(token.name)
            imported.append(token)
        }
        if !arguments.flag("dry-run") {
            let now = OTPCommand.nowMilliseconds()
            for token in imported { try store.add(token, now: now) }
        }

        let out = context.output
        if out.isJSON {
            out.json(.object([
                ("format", .string(contents.format.rawValue)), ("dryRun", .bool(arguments.flag("dry-run"))),
                ("imported", .array(imported.map { .string($0.name) })),
                ("duplicates", .array(duplicates.map { .object([("name", .string($0.0.name)), ("storedAs", .string($0.1))]) })),
                ("problems", .array(contents.problems.map { .object([("entry", .string($0.entry)), ("reason", .string($0.reason))]) })),
            ]))
        } else {
            for (token, existing) in duplicates {
                out.info("skipped '\(token.name)': the same token is stored as '\(existing)'")
            }
            for problem in contents.problems { out.error("\(path): \(problem.description)") }
            let verb = arguments.flag("dry-run") ? "would import" : "imported"
            var summary = "\(verb) \(imported.count) \(imported.count == 1 ? "token" : "tokens") from the \(contents.format.displayName)"
            if !duplicates.isEmpty { summary += "; \(duplicates.count) \(duplicates.count == 1 ? "duplicate" : "duplicates") skipped" }
            if !contents.problems.isEmpty {
                summary += "; \(contents.problems.count) broken \(contents.problems.count == 1 ? "entry" : "entries") not imported"
            }
            out.line(.text(summary))
        }
        if !contents.problems.isEmpty { throw CLIError.exit(ExitCode.dataError.rawValue) }
    }
}
