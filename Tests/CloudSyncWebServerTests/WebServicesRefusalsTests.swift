import CloudSyncHTTPServer
import CloudSyncWebServer
import Testing

/// The HTTP server's own refusals, worded by the Web Services side: the same bytes, status and
/// headers as when `CloudSyncHTTPServer` wrote CloudKit error bodies itself (before issue 31).
@Suite("Web Services wording of the HTTP server's refusals")
struct WebServicesRefusalsTests {
    /// Each refusal, with the status, body and `Retry-After` the server sent for it before.
    static let expected: [(HTTPRefusal, Int, String, String?)] = [
        (.badTarget(.nul), 400, #"{"serverErrorCode":"BAD_REQUEST","reason":"the request path holds a NUL character (%00)"}"#, nil),
        (.badTarget(.dotSegment("..")), 400,
         #"{"serverErrorCode":"BAD_REQUEST","reason":"the request path holds a '..' segment; send it without '.' or '..' segments"}"#, nil),
        (.bodyTooLarge(limit: 1000, decompressed: false), 400,
         #"{"serverErrorCode":"BAD_REQUEST","reason":"the request body is larger than 1000 bytes","ckErrorCode":"limitExceeded"}"#, nil),
        (.bodyTooLarge(limit: 1000, decompressed: true), 400,
         #"{"serverErrorCode":"BAD_REQUEST","reason":"the request body is larger than 1000 bytes once decompressed","ckErrorCode":"limitExceeded"}"#,
         nil),
        (.bodyMemoryFull(retryAfter: 1), 503,
         #"{"serverErrorCode":"TRY_AGAIN_LATER","reason":"the server holds too many request bodies; retry after 1 s","retryAfter":1}"#, "1"),
        (.unreadableGzipBody, 400,
         #"{"serverErrorCode":"BAD_REQUEST","reason":"the gzip request body cannot be read","ckErrorCode":"invalidArguments"}"#, nil),
        (.unsupportedContentEncoding("br"), 415,
         #"{"serverErrorCode":"BAD_REQUEST","reason":"request bodies in Content-Encoding 'br' are not read; send gzip or none","ckErrorCode":"invalidArguments"}"#,
         nil),
        (.busy(retryAfter: 7), 503,
         #"{"serverErrorCode":"TRY_AGAIN_LATER","reason":"the server is busy; retry after 7 s","retryAfter":7,"ckErrorCode":"serviceUnavailable"}"#,
         "7"),
        (.tooManyLongPolls(retryAfter: 2), 503,
         #"{"serverErrorCode":"TRY_AGAIN_LATER","reason":"too many long polls are open; retry after 2 s","retryAfter":2}"#, "2"),
    ]

    @Test func everyRefusalIsTheCloudKitBodyItWasBefore() {
        for (refusal, status, body, retryAfter) in Self.expected {
            let response = WebServicesRefusals.response(to: refusal)
            #expect(response.status == status, "\(refusal)")
            #expect(String(decoding: response.body, as: UTF8.self) == body, "\(refusal)")
            let fields = response.headers.map { "\($0.name): \($0.value)" }
            #expect(fields == ["Content-Type: application/json; charset=utf-8"] + (retryAfter.map { ["Retry-After: \($0)"] } ?? []),
                    "\(refusal)")
        }
    }

    /// The generic wording (a handler that words none) is not CloudKit's: the HTTP server's own.
    @Test func theGenericWordingIsNotCloudKits() {
        let response = HTTPRefusal.bodyTooLarge(limit: 1000, decompressed: false).response
        #expect(response.status == 413)
        #expect(String(decoding: response.body, as: UTF8.self)
                == #"{"error":"bodyTooLarge","reason":"the request body is larger than 1000 bytes"}"#)
    }

    @Test func errorRepliesAreWebServicesDictionaries() {
        let response = HTTPResponse.error(status: 503, code: "SERVICE_UNAVAILABLE", reason: "busy \"now\"", retryAfter: 2)
        #expect(String(decoding: response.body, as: UTF8.self)
                == #"{"serverErrorCode":"SERVICE_UNAVAILABLE","reason":"busy \"now\"","retryAfter":2}"#)
        #expect(response.headers["retry-after"] == "2")
    }
}
