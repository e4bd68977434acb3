import CloudSyncCore

/// Request errors as the Web Services write them: `{"serverErrorCode", "reason", "uuid",
/// "retryAfter"}` with the HTTP status Apple documents for each code ("Error Codes" in the
/// CloudKit Web Services Reference). The extension key `ckErrorCode` keeps the CKError code, so
/// that two codes sharing a `serverErrorCode` (BAD_REQUEST) come back as they left.
public enum WebServicesError {
    /// `serverErrorCode` of a rejected credential (401); the project's code for it is `notAuthenticated`.
    public static let authenticationFailed = "AUTHENTICATION_FAILED"

    /// The documented HTTP status of a `serverErrorCode`.
    public static func status(forServerErrorCode code: String) -> Int {
        switch code {
        case "ACCESS_DENIED": 403
        case "ATOMIC_ERROR", "BAD_REQUEST", "BAD_DATABASE", "LIMIT_EXCEEDED", "CHANGE_TOKEN_EXPIRED", "PARTIAL_FAILURE": 400
        case "AUTHENTICATION_FAILED": 401
        case "AUTHENTICATION_REQUIRED": 421
        case "CONFLICT", "EXISTS": 409
        case "NOT_FOUND", "ZONE_NOT_FOUND", "USER_DELETED_ZONE", "ASSET_FILE_NOT_FOUND": 404
        case "QUOTA_EXCEEDED": 413
        case "THROTTLED": 429
        case "TRY_AGAIN_LATER", "SERVICE_UNAVAILABLE", "NETWORK_UNAVAILABLE", "NETWORK_FAILURE": 503
        case "VALIDATING_REFERENCE_ERROR": 412
        default: 500
        }
    }

    /// The HTTP status of a CloudError.
    public static func status(for error: CloudError) -> Int {
        status(forServerErrorCode: error.code.serverErrorCode)
    }

    /// The error body. `serverErrorCode` overrides the code's own (AUTHENTICATION_FAILED).
    public static func body(_ error: CloudError, uuid: String, serverErrorCode: String? = nil) -> JSONValue {
        var pairs: [(String, JSONValue)] = [
            ("uuid", .string(uuid)),
            ("serverErrorCode", .string(serverErrorCode ?? error.code.serverErrorCode)),
            ("reason", .string(error.reason)),
            ("retryAfter", error.retryAfter.map { .double($0) } ?? .null),
            ("ckErrorCode", .string(error.code.rawValue)),
        ]
        if let recordID = error.recordID {
            pairs.append(("recordName", .string(recordID.recordName)))
            pairs.append(("zoneID", RecordJSON.encode(zoneID: recordID.zoneID)))
        }
        if let record = error.serverRecord { pairs.append(("serverRecord", RecordJSON.encode(record))) }
        return .object(pairs)
    }

    /// The CloudError a reply body describes (a top-level error or a per-item error). Unknown
    /// codes become `internalError` with the server's reason; `status` decides 401/403/429/503
    /// when the body says nothing useful.
    public static func decode(_ json: JSONValue, status: Int? = nil) -> CloudError {
        let serverCode = json["serverErrorCode"]?.stringValue ?? ""
        let reason = json["reason"]?.stringValue ?? "the server answered HTTP \(status.map(String.init) ?? "?") with no reason"
        var code: CloudError.Code
        if let name = json["ckErrorCode"]?.stringValue, let known = CloudError.Code(rawValue: name) {
            code = known
        } else if serverCode == authenticationFailed {
            code = .notAuthenticated
        } else if serverCode == "VALIDATING_REFERENCE_ERROR" {
            code = .invalidArguments
        } else if let known = CloudError.Code.allCases.first(where: { $0.serverErrorCode == serverCode }) {
            code = known
        } else {
            code = codeForStatus(status ?? 500)
        }
        var error = CloudError(code, reason, retryAfter: json["retryAfter"]?.doubleValue)
        if let name = json["recordName"]?.stringValue {
            let zone = (try? json["zoneID"].map(RecordJSON.decodeZoneID)) ?? nil
            error.recordID = RecordID(recordName: name, zoneID: zone ?? ZoneID(zoneName: ZoneID.defaultZoneName,
                                                                               ownerRecordName: ZoneID.currentUserOwner))
        }
        if let server = json["serverRecord"] { error.serverRecord = try? RecordJSON.decodeRecord(server) }
        return error
    }

    /// The code of an HTTP status whose body is not a Web Services error.
    public static func codeForStatus(_ status: Int) -> CloudError.Code {
        switch status {
        case 400, 413: .invalidArguments
        case 401, 421: .notAuthenticated
        case 403: .permissionFailure
        case 404: .unknownItem
        case 409: .serverRecordChanged
        case 429: .requestRateLimited
        case 502, 503, 504: .serviceUnavailable
        default: .internalError
        }
    }
}
