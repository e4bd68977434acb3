import CloudSyncCore
import Testing

@Suite("CloudError")
struct CloudErrorTests {
    static let serverCodes: [CloudError.Code: String] = [
        .internalError: "INTERNAL_ERROR", .partialFailure: "PARTIAL_FAILURE",
        .networkUnavailable: "NETWORK_UNAVAILABLE", .networkFailure: "NETWORK_FAILURE",
        .serviceUnavailable: "SERVICE_UNAVAILABLE", .requestRateLimited: "THROTTLED",
        .notAuthenticated: "AUTHENTICATION_REQUIRED", .permissionFailure: "ACCESS_DENIED",
        .unknownItem: "NOT_FOUND", .invalidArguments: "BAD_REQUEST", .serverRecordChanged: "CONFLICT",
        .serverRejectedRequest: "BAD_REQUEST", .assetFileNotFound: "ASSET_FILE_NOT_FOUND",
        .constraintViolation: "EXISTS", .changeTokenExpired: "CHANGE_TOKEN_EXPIRED",
        .batchRequestFailed: "ATOMIC_ERROR", .zoneBusy: "TRY_AGAIN_LATER", .badDatabase: "BAD_DATABASE",
        .quotaExceeded: "QUOTA_EXCEEDED", .zoneNotFound: "ZONE_NOT_FOUND", .limitExceeded: "LIMIT_EXCEEDED",
        .userDeletedZone: "USER_DELETED_ZONE",
    ]

    @Test func everyCodeHasItsServerErrorCode() {
        #expect(Set(CloudError.Code.allCases) == Set(Self.serverCodes.keys))
        for code in CloudError.Code.allCases {
            #expect(code.serverErrorCode == Self.serverCodes[code], "\(code)")
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
