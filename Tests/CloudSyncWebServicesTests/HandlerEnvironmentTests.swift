import CloudSyncService
import CloudSyncCore
import Testing
@testable import CloudSyncWebClient
@testable import CloudSyncWebProtocol
@testable import CloudSyncWebServer

/// The environment of a path picks the data set: development and production are separate.
@Suite struct HandlerEnvironmentTests {
    @Test func pathEnvironmentsHoldSeparateRecords() throws {
        let f = try WebServicesFixture()
        func call(_ environment: String, _ tail: String, _ body: String) -> JSONValue {
            let request = WebServicesRequest(method: "POST", path: "/database/1/\(f.container)/\(environment)/private/\(tail)",
                                             body: Array(body.utf8), account: "alice")
            return (try? JSONValue.parse(bytes: f.handler.handle(request).body)) ?? .null
        }
        let save = call("development", "records/modify",
                        #"{"operations":[{"operationType":"create","record":{"recordName":"a","recordType":"Note","fields":{"t":{"value":"x"}}}}]}"#)
        #expect(save["records"]?.arrayValue?.first?["recordName"] == .string("a"))
        let lookup = #"{"records":[{"recordName":"a"}]}"#
        #expect(call("development", "records/lookup", lookup)["records"]?.arrayValue?.first?["recordName"] == .string("a"))
        #expect(call("production", "records/lookup", lookup)["records"]?.arrayValue?.first?["serverErrorCode"] != nil)
    }
}
