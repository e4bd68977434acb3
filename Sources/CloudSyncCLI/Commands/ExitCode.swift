/// The exit statuses of cloudsync (DESIGN §5), close to BSD sysexits.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// The operation failed.
    case failure = 1
    /// The zone, record or other item does not exist.
    case notFound = 3
    /// A conflicting change (change tag mismatch, item already exists).
    case conflict = 4
    /// The command line is wrong.
    case usage = 64
    /// The input data is wrong.
    case dataError = 65
    /// The cloud cannot be reached.
    case unavailable = 69
    /// A bug or an unexpected condition inside cloudsync.
    case internalError = 70
    /// A local file or folder (the home, a state file, an output file) cannot be created, read
    /// or written (EX_IOERR).
    case ioError = 74
    /// Try again later (rate limited, zone busy).
    case tempFailure = 75
    /// Not authenticated or not allowed.
    case permissionDenied = 77
}
