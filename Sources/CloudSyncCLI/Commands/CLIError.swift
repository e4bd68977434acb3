import CloudSyncCore

/// Errors a command or the dispatcher reports to the user. Each case carries one human sentence
/// (the text after `cloudsync: error: `) and maps to an exit code.
public enum CLIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command line is wrong (exit 64). Lines after the first are `Did you mean …?` hints.
    case usage(String)
    /// A setting from the environment or a file is wrong (exit 64, like `usage`, but with no usage
    /// reminder: the command line itself is fine).
    case setting(String)
    /// The input data is wrong: a malformed file, JSON or value (exit 65).
    case badInput(String)
    /// The named item does not exist (exit 3).
    case notFound(String)
    /// A conflicting change or an item that already exists (exit 4).
    case conflict(String)
    /// The operation failed (exit 1).
    case failed(String)
    /// The cloud or another service cannot be reached (exit 69).
    case unavailable(String)
    /// A transient failure; try again later (exit 75).
    case tempFailure(String)
    /// Not allowed (exit 77).
    case permissionDenied(String)
    /// A bug or unexpected condition (exit 70).
    case internalError(String)
    /// A local file or folder cannot be created, read or written (exit 74): an unwritable home,
    /// a full disk. Not the cloud's fault, so never 69.
    case ioError(String)
    /// Exit with this status without printing anything (the command already reported).
    case exit(Int32)

    /// The process exit status for this error.
    public var exitCode: Int32 {
        switch self {
        case .usage, .setting: ExitCode.usage.rawValue
        case .badInput: ExitCode.dataError.rawValue
        case .notFound: ExitCode.notFound.rawValue
        case .conflict: ExitCode.conflict.rawValue
        case .failed: ExitCode.failure.rawValue
        case .unavailable: ExitCode.unavailable.rawValue
        case .tempFailure: ExitCode.tempFailure.rawValue
        case .permissionDenied: ExitCode.permissionDenied.rawValue
        case .internalError: ExitCode.internalError.rawValue
        case .ioError: ExitCode.ioError.rawValue
        case .exit(let code): code
        }
    }

    /// The human message (empty for `.exit`).
    public var message: String {
        switch self {
        case .usage(let m), .setting(let m), .badInput(let m), .notFound(let m), .conflict(let m), .failed(let m),
             .unavailable(let m), .tempFailure(let m), .permissionDenied(let m), .internalError(let m), .ioError(let m):
            m
        case .exit:
            ""
        }
    }

    /// The documented CloudKit Web Services code closest to this error, for `--json` error
    /// output (one of Apple's 14, as the cloud's errors are; the exit status tells the rest).
    public var serverErrorCode: String {
        switch self {
        case .usage, .setting, .badInput, .failed, .exit: "BAD_REQUEST"
        case .notFound: "NOT_FOUND"
        case .conflict: "CONFLICT"
        case .unavailable, .tempFailure: "TRY_AGAIN_LATER"
        case .permissionDenied: "ACCESS_DENIED"
        case .internalError, .ioError: "INTERNAL_ERROR"
        }
    }

    /// The `{"error": {"serverErrorCode", "reason"}}` document of `--json` error output, shaped
    /// like `CloudError.jsonDocument` (no CLI error has a `retryAfter`, so the member is left
    /// out). Hint lines are joined with spaces.
    public var jsonDocument: JSONValue {
        let reason = message.split(separator: "\n").joined(separator: " ")
        return .object([("error", .object([
            ("serverErrorCode", .string(serverErrorCode)),
            ("reason", .string(reason)),
        ]))])
    }

    /// The message, for logs and `String(describing:)`.
    public var description: String {
        if case .exit(let code) = self { return "exit status \(code)" }
        return message
    }
}
