import CloudSyncCore

extension CloudError {
    /// The process exit status for this cloud error (DESIGN §5). A service that answered
    /// "unavailable, retry after N" (HTTP 503 with `Retry-After`) is busy, not unreachable:
    /// try later (75) once the bounded retries are spent; without `retryAfter` it is 69.
    public var exitCode: Int32 {
        if code == .serviceUnavailable, retryAfter != nil { return ExitCode.tempFailure.rawValue }
        return code.exitCode
    }
}

extension CloudError.Code {
    /// The process exit status for this CKError code: not found 3, conflict 4, bad input 65,
    /// unavailable 69, internal 70, try again later 75, permission 77, anything else 1.
    public var exitCode: Int32 {
        let status: ExitCode = switch self {
        case .unknownItem, .zoneNotFound, .userDeletedZone: .notFound
        case .serverRecordChanged, .constraintViolation: .conflict
        case .invalidArguments, .limitExceeded, .serverRejectedRequest, .quotaExceeded: .dataError
        case .networkUnavailable, .networkFailure, .serviceUnavailable, .badDatabase: .unavailable
        case .requestRateLimited, .zoneBusy: .tempFailure
        case .permissionFailure, .notAuthenticated: .permissionDenied
        case .internalError: .internalError
        case .partialFailure, .changeTokenExpired, .batchRequestFailed, .assetFileNotFound: .failure
        }
        return status.rawValue
    }
}
