import CloudSyncCore

/// Request errors as the Web Services write them: `{"uuid", "serverErrorCode", "reason",
/// "retryAfter"}` with the HTTP status Apple documents for each code ("Error Codes" in the
/// CloudKit Web Services Reference). `serverErrorCode` is always one of Apple's 14 documented
/// codes (`documentedStatuses`), so typed clients can decode every reply; the extension key
/// `ckErrorCode` keeps the precise CKError code (`zoneNotFound` or `userDeletedZone` behind
/// ZONE_NOT_FOUND), so this project's client gets back the error that left. A member without a
/// value (`retryAfter` of an error that gives none) is left out, never written as null.
public enum WebServicesError {
    /// `serverErrorCode` of a rejected credential (401); the project's code for it is `notAuthenticated`.
    public static let authenticationFailed = "AUTHENTICATION_FAILED"

    /// Apple's 14 documented `serverErrorCode` values and the HTTP status of each.
    public static let documentedStatuses: [String: Int] = [
        "ACCESS_DENIED": 403, "ATOMIC_ERROR": 400, "AUTHENTICATION_FAILED": 401, "AUTHENTICATION_REQUIRED": 421,
        "BAD_REQUEST": 400, "CONFLICT": 409, "EXISTS": 409, "INTERNAL_ERROR": 500, "NOT_FOUND": 404,
        "QUOTA_EXCEEDED": 413, "THROTTLED": 429, "TRY_AGAIN_LATER": 503, "VALIDATING_REFERENCE_ERROR": 412,
        "ZONE_NOT_FOUND": 404,
    ]

    /// The documented HTTP status of a `serverErrorCode` (500 for a code Apple does not document).
    public static func status(forServerErrorCode code: String) -> Int {
        documentedStatuses[code] ?? 500
    }

    /// The HTTP status of a CloudError.
    public static func status(for error: CloudError) -> Int {
        status(forServerErrorCode: error.code.serverErrorCode)
    }

    /// The error body. `serverErrorCode` overrides the code's own (AUTHENTICATION_FAILED,
    /// TRY_AGAIN_LATER); it must be a documented one.
    public static func body(_ error: CloudError, uuid: String, serverErrorCode: String? = nil) -> JSONValue {
        let code = serverErrorCode ?? error.code.serverErrorCode
        assert(documentedStatuses[code] != nil, "\(code) is not a documented serverErrorCode")
        var pairs: [(String, JSONValue)] = [
            ("uuid", .string(uuid)),
            ("serverErrorCode", .string(code)),
            ("reason", .string(error.reason)),
        ]
        if let retry = error.retryAfter, retry.isFinite { pairs.append(("retryAfter", .double(retry))) }
        pairs.append(("ckErrorCode", .string(error.code.rawValue)))
        if let recordID = error.recordID {
            pairs.append(("recordName", .string(recordID.recordName)))
            pairs.append(("zoneID", RecordJSON.encode(zoneID: recordID.zoneID)))
        }
        if let record = error.serverRecord { pairs.append(("serverRecord", RecordJSON.encode(record))) }
        return .object(pairs)
    }

    /// The CloudError a reply body describes (a top-level error or a per-item error): the code
    /// of `ckErrorCode` when the server sent one, else the code its documented `serverErrorCode`
    /// stands for, else `status`'s. Unknown codes keep the
    /// server's reason.
    public static func decode(_ json: JSONValue, status: Int? = nil) -> CloudError {
        let serverCode = json["serverErrorCode"]?.stringValue ?? ""
        let reason = json["reason"]?.stringValue ?? "the server answered HTTP \(status.map(String.init) ?? "?") with no reason"
        var code: CloudError.Code
        if let name = json["ckErrorCode"]?.stringValue, let known = CloudError.Code(rawValue: name) {
            code = known
        } else if let known = CloudError.Code(serverErrorCode: serverCode) {
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
