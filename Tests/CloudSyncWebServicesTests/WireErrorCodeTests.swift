import CloudSyncService
import CloudSyncCore
import Testing
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer

/// Apple's 14 documented `serverErrorCode` values, each with its documented HTTP status, are
/// all a typed client can decode: every error the server sends takes one of them, keeps the
/// precise code in `ckErrorCode` (so this project's client gets it back unchanged), and leaves
/// out members without a value.
@Suite struct WireErrorCodeTests {
    static let documented: [String: Int] = [
        "ACCESS_DENIED": 403, "ATOMIC_ERROR": 400, "AUTHENTICATION_FAILED": 401, "AUTHENTICATION_REQUIRED": 421,
        "BAD_REQUEST": 400, "CONFLICT": 409, "EXISTS": 409, "INTERNAL_ERROR": 500, "NOT_FOUND": 404,
        "QUOTA_EXCEEDED": 413, "THROTTLED": 429, "TRY_AGAIN_LATER": 503, "VALIDATING_REFERENCE_ERROR": 412,
        "ZONE_NOT_FOUND": 404,
    ]

    /// JSON nulls anywhere in `json`, by path.
    static func nulls(_ json: JSONValue, at path: String = "$") -> [String] {
        switch json {
        case .null: [path]
        case .object(let pairs): pairs.flatMap { nulls($0.1, at: path + "." + $0.0) }
        case .array(let items): items.enumerated().flatMap { nulls($0.1, at: path + "[\($0.0)]") }
        default: []
        }
    }

    @Test func everyCodeIsSentAsADocumentedOneWithItsStatusAndComesBack() throws {
        for code in CloudError.Code.allCases {
            let error = CloudError(code, "why")
            let body = WebServicesError.body(error, uuid: "u")
            let sent = try #require(body["serverErrorCode"]?.stringValue)
            let status = WebServicesError.status(for: error)
            #expect(Self.documented[sent] == status, "\(code) is sent as \(sent) with \(status)")
            #expect(body["ckErrorCode"] == .string(code.rawValue))
            #expect(body["retryAfter"] == nil, "no retryAfter member without a value: \(body.serialized())")
            #expect(Self.nulls(body).isEmpty, "\(body.serialized())")
            // The client recovers the precise code from ckErrorCode (so every CLI exit code stays).
            let reply = HTTPReply(status: status, headers: [], body: Array(body.serialized().utf8))
            #expect(HTTPCloud.error(of: reply).code == code, "\(code)")
        }
        // The codes that used to go out undocumented.
        let mapped: [(CloudError.Code, String)] = [
            (.limitExceeded, "BAD_REQUEST"), (.changeTokenExpired, "BAD_REQUEST"), (.badDatabase, "BAD_REQUEST"),
            (.partialFailure, "BAD_REQUEST"), (.userDeletedZone, "ZONE_NOT_FOUND"), (.assetFileNotFound, "NOT_FOUND"),
            (.serviceUnavailable, "TRY_AGAIN_LATER"), (.networkFailure, "TRY_AGAIN_LATER"),
            (.networkUnavailable, "TRY_AGAIN_LATER"), (.zoneBusy, "TRY_AGAIN_LATER"), (.requestRateLimited, "THROTTLED"),
        ]
        for (code, sent) in mapped { #expect(code.serverErrorCode == sent, "\(code)") }
    }

    @Test func aBusyServerAnswersTryAgainLaterOrThrottledWithRetryAfter() throws {
        for (code, sent, status) in [(CloudError.Code.serviceUnavailable, "TRY_AGAIN_LATER", 503),
                                     (.zoneBusy, "TRY_AGAIN_LATER", 503), (.requestRateLimited, "THROTTLED", 429)] {
            let error = CloudError(code, "busy", retryAfter: 2)
            let response = WebServicesFixtureHandler.shared.errorResponse(error, status: WebServicesError.status(for: error), uuid: "u")
            let json = try JSONValue.parse(bytes: response.body)
            #expect(response.status == status && json["serverErrorCode"] == .string(sent), "\(code)")
            #expect(json["retryAfter"]?.doubleValue == 2)
            #expect(response.header("Retry-After") == "2")
            let back = HTTPCloud.error(of: HTTPReply(status: status, headers: [], body: response.body))
            #expect(back.code == code && back.retryAfter == 2)
        }
    }

    @Test func repliesOfTheHandlerCarryOnlyDocumentedCodesAndNoNulls() throws {
        let f = try WebServicesFixture()
        let many = (0..<201).map { #"{"operationType":"create","record":{"recordName":"r\#($0)","recordType":"T"}}"# }
        let replies = [
            f.call("records/modify", #"{"operations":[\#(many.joined(separator: ","))]}"#),
            f.call("records/modify", #"{"operations": 1}"#),
            f.call("kv/changes", "{}", scope: "public"),
            f.call("records/changes", #"{"zoneID":{"zoneName":"Nope"}}"#),
            f.call("records/query", #"{"query":{"recordType":"T"}}"#, account: nil),
            f.call("records/lookup", #"{"records":[{"recordName":"missing"}]}"#),
        ]
        for reply in replies {
            #expect(reply.status != 200 || reply.json["records"] != nil)
            let errors = reply.status == 200 ? reply.json["records"]?.arrayValue ?? [] : [reply.json]
            #expect(!errors.isEmpty)
            for error in errors {
                let code = try #require(error["serverErrorCode"]?.stringValue)
                #expect(Self.documented[code] != nil, "\(code) is not documented")
                if reply.status != 200 { #expect(Self.documented[code] == reply.status, "\(code) with HTTP \(reply.status)") }
                #expect(Self.nulls(error).isEmpty, "\(error.serialized())")
                #expect(error["ckErrorCode"]?.stringValue != nil)
            }
        }
        #expect(replies[0].json["ckErrorCode"] == .string("limitExceeded"))
    }
}

/// A handler with no cloud behind it, for the error responses it writes.
enum WebServicesFixtureHandler {
    static let shared = WebServicesHandler(cloudFor: { _ throws(CloudError) in throw CloudError(.internalError, "none") },
                                           makeUUID: { "u" })
}
