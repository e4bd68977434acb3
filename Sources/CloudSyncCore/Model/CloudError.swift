/// The one error type of the cloud and the device layers. It carries the CKError code name
/// (`serverRecordChanged`, `zoneNotFound`, …), the matching CloudKit Web Services
/// `serverErrorCode` (`CONFLICT`, `ZONE_NOT_FOUND`, …) and a human reason.
public struct CloudError: Error, Sendable, Hashable, CustomStringConvertible {
    /// CKError.Code names, with the Web Services code each maps to.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        case internalError
        case partialFailure
        case networkUnavailable
        case networkFailure
        case serviceUnavailable
        case requestRateLimited
        case notAuthenticated
        case permissionFailure
        case unknownItem
        case invalidArguments
        case serverRecordChanged
        case serverRejectedRequest
        case assetFileNotFound
        case constraintViolation
        case changeTokenExpired
        case batchRequestFailed
        case zoneBusy
        case badDatabase
        case quotaExceeded
        case zoneNotFound
        case limitExceeded
        case userDeletedZone

        /// The CloudKit Web Services `serverErrorCode` this code is reported as: always one of
        /// Apple's 14 documented values, so typed clients and scripts can decode it. Codes Apple
        /// documents no value for take the nearest documented one; the precise code travels
        /// beside it as `ckErrorCode` (see docs/ARCHITECTURE.md, "Error codes").
        public var serverErrorCode: String {
            switch self {
            case .internalError: "INTERNAL_ERROR"
            case .partialFailure, .invalidArguments, .serverRejectedRequest, .limitExceeded, .changeTokenExpired, .badDatabase:
                "BAD_REQUEST"
            case .networkUnavailable, .networkFailure, .serviceUnavailable, .zoneBusy: "TRY_AGAIN_LATER"
            case .requestRateLimited: "THROTTLED"
            case .notAuthenticated: "AUTHENTICATION_REQUIRED"
            case .permissionFailure: "ACCESS_DENIED"
            case .unknownItem, .assetFileNotFound: "NOT_FOUND"
            case .serverRecordChanged: "CONFLICT"
            case .constraintViolation: "EXISTS"
            case .batchRequestFailed: "ATOMIC_ERROR"
            case .quotaExceeded: "QUOTA_EXCEEDED"
            case .zoneNotFound, .userDeletedZone: "ZONE_NOT_FOUND"
            }
        }

        /// The code a documented `serverErrorCode` stands for when nothing more precise is known
        /// (no `ckErrorCode`), or nil for a value Apple does not document.
        public init?(serverErrorCode: String) {
            switch serverErrorCode {
            case "INTERNAL_ERROR": self = .internalError
            case "BAD_REQUEST", "VALIDATING_REFERENCE_ERROR": self = .invalidArguments
            case "TRY_AGAIN_LATER": self = .zoneBusy
            case "THROTTLED": self = .requestRateLimited
            case "AUTHENTICATION_REQUIRED", "AUTHENTICATION_FAILED": self = .notAuthenticated
            case "ACCESS_DENIED": self = .permissionFailure
            case "NOT_FOUND": self = .unknownItem
            case "CONFLICT": self = .serverRecordChanged
            case "EXISTS": self = .constraintViolation
            case "ATOMIC_ERROR": self = .batchRequestFailed
            case "QUOTA_EXCEEDED": self = .quotaExceeded
            case "ZONE_NOT_FOUND": self = .zoneNotFound
            default: return nil
            }
        }

        /// True for the transient codes a client should retry after a delay.
        public var isRetryable: Bool {
            switch self {
            case .networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy:
                true
            default:
                false
            }
        }
    }

    public var code: Code
    /// One line, for a human.
    public var reason: String
    /// Seconds to wait before retrying (requestRateLimited, zoneBusy, serviceUnavailable).
    public var retryAfter: Double?
    /// The record the error is about, when there is one.
    public var recordID: RecordID?
    /// For serverRecordChanged: the record as the server has it now.
    public var serverRecord: Record?
    /// For partialFailure: the error of each failed item.
    public var partialErrors: [RecordID: CloudError]

    public init(_ code: Code, _ reason: String, retryAfter: Double? = nil, recordID: RecordID? = nil,
                serverRecord: Record? = nil, partialErrors: [RecordID: CloudError] = [:]) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.recordID = recordID
        self.serverRecord = serverRecord
        self.partialErrors = partialErrors
    }

    public var description: String { reason }

    /// The `{"error": {...}}` document of the CLI's `--json` error output; `retryAfter` only
    /// when there is one (a member without a value is left out, never null).
    public var jsonDocument: JSONValue {
        var body: [(String, JSONValue)] = [
            ("ckErrorCode", .string(code.rawValue)),
            ("serverErrorCode", .string(code.serverErrorCode)),
            ("reason", .string(reason)),
        ]
        if let retryAfter { body.append(("retryAfter", .double(retryAfter))) }
        if let recordID {
            body.append(("recordName", .string(recordID.recordName)))
            body.append(("zoneID", RecordJSON.encode(zoneID: recordID.zoneID)))
        }
        if let serverRecord {
            body.append(("serverRecord", RecordJSON.encode(serverRecord)))
        }
        if !partialErrors.isEmpty {
            let items = partialErrors.sorted { $0.key.recordName < $1.key.recordName }.map { id, error in
                JSONValue.object([
                    ("recordName", .string(id.recordName)),
                    ("ckErrorCode", .string(error.code.rawValue)),
                    ("serverErrorCode", .string(error.code.serverErrorCode)),
                    ("reason", .string(error.reason)),
                ])
            }
            body.append(("partialErrors", .array(items)))
        }
        return .object([("error", .object(body))])
    }
}
