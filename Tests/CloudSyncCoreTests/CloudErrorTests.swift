import CloudSyncCore
import Testing

@Suite("CloudError")
struct CloudErrorTests {
    /// Apple's 14 documented `serverErrorCode` values ("Error Codes", CloudKit Web Services Reference).
    static let documented: Set<String> = [
        "ACCESS_DENIED", "ATOMIC_ERROR", "AUTHENTICATION_FAILED", "AUTHENTICATION_REQUIRED", "BAD_REQUEST", "CONFLICT",
        "EXISTS", "INTERNAL_ERROR", "NOT_FOUND", "QUOTA_EXCEEDED", "THROTTLED", "TRY_AGAIN_LATER",
        "VALIDATING_REFERENCE_ERROR", "ZONE_NOT_FOUND",
    ]

    static let serverCodes: [CloudError.Code: String] = [
        .internalError: "INTERNAL_ERROR", .partialFailure: "BAD_REQUEST",
        .networkUnavailable: "TRY_AGAIN_LATER", .networkFailure: "TRY_AGAIN_LATER",
        .serviceUnavailable: "TRY_AGAIN_LATER", .requestRateLimited: "THROTTLED",
        .notAuthenticated: "AUTHENTICATION_REQUIRED", .permissionFailure: "ACCESS_DENIED",
        .unknownItem: "NOT_FOUND", .invalidArguments: "BAD_REQUEST", .serverRecordChanged: "CONFLICT",
        .serverRejectedRequest: "BAD_REQUEST", .assetFileNotFound: "NOT_FOUND",
        .constraintViolation: "EXISTS", .changeTokenExpired: "BAD_REQUEST",
        .batchRequestFailed: "ATOMIC_ERROR", .zoneBusy: "TRY_AGAIN_LATER", .badDatabase: "BAD_REQUEST",
        .quotaExceeded: "QUOTA_EXCEEDED", .zoneNotFound: "ZONE_NOT_FOUND", .limitExceeded: "BAD_REQUEST",
        .userDeletedZone: "ZONE_NOT_FOUND",
    ]

    @Test func everyCodeHasADocumentedServerErrorCode() {
        #expect(Set(CloudError.Code.allCases) == Set(Self.serverCodes.keys))
        for code in CloudError.Code.allCases {
            #expect(code.serverErrorCode == Self.serverCodes[code], "\(code)")
            #expect(Self.documented.contains(code.serverErrorCode), "\(code)")
        }
    }

    @Test func everyDocumentedCodeStandsForACode() {
        for name in Self.documented {
            let code = CloudError.Code(serverErrorCode: name)
            #expect(code != nil, "\(name)")
            if !["AUTHENTICATION_FAILED", "VALIDATING_REFERENCE_ERROR"].contains(name) {
                #expect(code?.serverErrorCode == name, "\(name) is sent back as itself")
            }
        }
        for name in ["PARTIAL_FAILURE", "LIMIT_EXCEEDED", "SERVICE_UNAVAILABLE", "FAILED", "", "bad_request"] {
            #expect(CloudError.Code(serverErrorCode: name) == nil, "\(name) is not documented")
        }
    }

    @Test func retryableCodes() {
        let retryable = Set(CloudError.Code.allCases.filter(\.isRetryable))
        #expect(retryable == [.networkUnavailable, .networkFailure, .serviceUnavailable, .requestRateLimited, .zoneBusy])
    }

    @Test func plainErrorDocument() {
        let error = CloudError(.zoneNotFound, "zone 'Notes' does not exist")
        #expect(error.description == "zone 'Notes' does not exist")
        #expect(error.jsonDocument.serialized() ==
            #"{"error":{"ckErrorCode":"zoneNotFound","serverErrorCode":"ZONE_NOT_FOUND","reason":"zone 'Notes' does not exist"}}"#)
        #expect(error.jsonDocument["error"]?["retryAfter"] == nil, "no null member")
    }

    @Test func retryAfterIsANumber() {
        let error = CloudError(.requestRateLimited, "slow down", retryAfter: 2.5)
        #expect(error.jsonDocument["error"]?["retryAfter"] == .double(2.5))
        #expect(error.jsonDocument["error"]?["serverErrorCode"] == .string("THROTTLED"))
    }

    @Test func recordAndServerRecordAreIncluded() {
        let server = Fixtures.record("r1", ["n": .int64(2)], created: 1, modified: 2)
        let error = CloudError(.serverRecordChanged, "changed", recordID: Fixtures.id("r1"), serverRecord: server)
        let body = error.jsonDocument["error"]
        #expect(body?.objectValue?.map(\.0) ==
            ["ckErrorCode", "serverErrorCode", "reason", "recordName", "zoneID", "serverRecord"])
        #expect(body?["serverErrorCode"] == .string("CONFLICT"))
        #expect(body?["recordName"] == .string("r1"))
        #expect(body?["zoneID"] == RecordJSON.encode(zoneID: Fixtures.zone))
        #expect(body?["serverRecord"] == RecordJSON.encode(server))
    }

    @Test func partialErrorsAreSortedByRecordName() {
        let error = CloudError(.partialFailure, "2 of 3 items failed", partialErrors: [
            Fixtures.id("b"): CloudError(.serverRecordChanged, "conflict on b"),
            Fixtures.id("a"): CloudError(.unknownItem, "a is gone"),
        ])
        let items = error.jsonDocument["error"]?["partialErrors"]?.arrayValue
        #expect(items?.count == 2)
        #expect(items?.first == .object([("recordName", .string("a")), ("ckErrorCode", .string("unknownItem")),
                                         ("serverErrorCode", .string("NOT_FOUND")), ("reason", .string("a is gone"))]))
        #expect(items?.last?["serverErrorCode"] == .string("CONFLICT"))
        #expect(CloudError(.internalError, "x").jsonDocument["error"]?["partialErrors"] == nil)
    }
}
