import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncOTP

/// `otp verify CODE QUERY`: check a code as a server would (RFC 4226 §7.2, RFC 6238 §5.2).
enum OTPVerify {
    static let spec = CommandSpec(
        name: "verify", abstract: "Check a code against a token: exit 0 on a match (printing the step offset), 1 otherwise.",
        discussion: """
            TOTP and Steam: the code is looked for in the steps within --window of now (default \
            1: the previous, current and next step), nearest first. A step once accepted is not \
            accepted again, nor any step before it (RFC 6238 §5.2). HOTP: the code is looked for \
            at the stored counter and the --window counters after it (default 1); on a match the \
            counter moves past it (RFC 4226 §7.2).
            """,
        options: [
            OptionSpec("window", value: "N", help: "Steps (TOTP) or counters (HOTP) of tolerance, 0 to 100 (default 1)."),
            OptionSpec("at", value: "TIME", help: "Verify as at TIME (ISO 8601, @epoch-seconds or epoch milliseconds) instead of now."),
        ],
        arguments: [ArgumentSpec("code", help: "The code to check."), OTPCommand.queryArgument],
        examples: [Example("cloudsync otp verify 492039 vpn && echo ok", "Exit 0 when the code is good.")],
        jsonOutput: OTPJSONOutput.verify,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard let rawCode = arguments.argument("code"), let query = arguments.argument("query") else {
            throw CLIError.usage("give the CODE and the token's QUERY")
        }
        var window = 1
        if let text = arguments.value("window") {
            guard let n = Int(text), (0...100).contains(n) else { throw CLIError.usage("--window takes 0 to 100, got '\(text)'") }
            window = n
        }
        let code = rawCode.filter { !$0.isWhitespace }
        let store = try OTPCommand.tokens(context, briefly: true)
        let stored = try OTPCommand.resolve(query, in: store)
        let token = stored.token
        let same: (String) -> Bool = { token.kind == .steam ? $0.uppercased() == code.uppercased() : $0 == code }
        var updated = stored
        let offset: Int64
        if token.kind == .hotp {
            if arguments.value("at") != nil { throw CLIError.usage("--at is for time-based tokens; '\(token.name)' is HOTP") }
            guard let k = (0...window).first(where: { k in
                let counter = token.counter + UInt64(k)
                // The counter after a match is saved: it must stay storable.
                return counter < OTPToken.maximumCounter && same(token.code(factor: counter))
            }) else {
                throw CLIError.failed("the code does not match '\(token.name)' (counters \(token.counter) to \(token.counter + UInt64(window)))")
            }
            offset = Int64(k)
            updated.token.counter = token.counter + UInt64(k) + 1
        } else {
            let ms = try OTPCommand.time(arguments)
            guard let now = token.step(atUnixSeconds: ms / 1000) else { throw CLIError.usage("no codes before 1970") }
            // Nearest first: 0, -1, +1, -2, +2, …
            let offsets = [Int64(0)] + (1...max(1, window)).flatMap { [-Int64($0), Int64($0)] }.filter { _ in window > 0 }
            guard let hit = offsets.first(where: { k in
                let step = Int64(now) + k
                return step >= 0 && same(token.code(factor: UInt64(step)))
            }) else {
                throw CLIError.failed("the code does not match '\(token.name)' (window ±\(window) steps)")
            }
            let step = UInt64(Int64(now) + hit)
            if let last = token.lastUsedStep, step <= last {
                throw CLIError.failed(step == last
                    ? "the code of '\(token.name)' was already used; a TOTP code is accepted once"
                    : "the code of '\(token.name)' is older than one already accepted")
            }
            offset = hit
            updated.token.lastUsedStep = step
        }
        try store.update(updated, from: token, now: OTPCommand.nowMilliseconds())
        if context.output.isJSON {
            context.output.json(.object([("valid", .bool(true)), ("name", .string(token.name)), ("offset", .int(offset))]))
        } else {
            context.output.line("valid: \(token.kind == .hotp ? "counter" : "step") offset \(offset > 0 ? "+" : "")\(offset)")
        }
    }
}
