@testable import CloudSyncHTTPServer
import Testing

@Suite("HTTPServer values: headers, log lines, configuration")
struct HTTPServerValueTests {
    @Test func headerLookupIgnoresCase() {
        var headers: HTTPHeaders = ["Content-Type": "application/json", "X-Many": "1"]
        headers.add("x-many", "2")
        #expect(headers["content-type"] == "application/json")
        #expect(headers["CONTENT-TYPE"] == "application/json")
        #expect(headers.values(for: "X-MANY") == ["1", "2"])
        headers.set("X-many", "3")
        #expect(headers.values(for: "x-many") == ["3"])
        #expect(headers["missing"] == nil)
    }

    @Test func logLinesDropTokensAndCannotBeSplit() {
        let target = HTTPRequestLogEntry.target(path: "/a b/\nforged 200", query: [
            .init(name: "ckWebAuthToken", value: "SECRET"), .init(name: "q", value: "x&y=z"),
        ])
        #expect(target == "/a%20b/%0Aforged%20200?ckWebAuthToken=-&q=x%26y%3Dz")
        let entry = HTTPRequestLogEntry(method: "GET", target: target, status: 404, milliseconds: 12.345,
                                        account: nil, remoteAddress: "127.0.0.1")
        #expect(entry.line == "GET /a%20b/%0Aforged%20200?ckWebAuthToken=-&q=x%26y%3Dz - 404 12.3ms 127.0.0.1")
    }

    @Test func outOfRangeConfigurationIsRefused() {
        let server = HTTPServer(configuration: HTTPServerConfiguration(maxConnections: 0),
                                handler: HTTPClosureHandler { _ in HTTPResponse(status: 200) })
        #expect(throws: HTTPServerError.invalidConfiguration("max connections must be 1 to 1000000")) {
            try server.start()
        }
    }
}
