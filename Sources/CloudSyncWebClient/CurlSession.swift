import CCurl
import CloudSyncCore
import CloudSyncWebProtocol
import Synchronization

/// One HTTP exchange's answer.
public struct HTTPReply: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    /// The first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.first { $0.0.lowercased() == lower }?.1
    }
}

/// Why an HTTP exchange did not produce a reply.
public enum HTTPTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libcurl could not be loaded.
    case library(String)
    /// The server could not be reached: unresolvable, timed out (curl's message).
    case unreachable(String)
    /// Nothing accepted the connection (refused): the request was not sent (curl's message).
    case refused(String)
    /// The exchange broke off after it started.
    case failed(String)
    /// The reply was larger than the limit (bytes).
    case replyTooLarge(Int)
    /// The server closed or reset the connection before any byte of a reply (curl's message;
    /// whether the whole request had been written to it). A server at its connection limit does
    /// this; the request was not answered, and if not sent in full, not acted on either.
    case closedBeforeReply(String, requestSent: Bool)

    public var description: String {
        switch self {
        case .library(let why): why
        case .unreachable(let why), .refused(let why): "cannot reach the cloud: \(why)"
        case .failed(let why): "the exchange with the cloud failed: \(why)"
        case .replyTooLarge(let limit): "the cloud's reply is larger than \(limit >> 20) MiB"
        case .closedBeforeReply(let why, _): "the cloud closed the connection before replying: \(why)"
        }
    }
}

/// The process's one libcurl easy handle, reused by every request so that connections (and TLS
/// sessions) to the cloud are kept alive between calls. Requests take turns on it.
public final class CurlSession: Sendable {
    /// The session every HTTPCloud of the process shares.
    public static let shared = CurlSession()

    private let handle = Mutex<UnsafeMutableRawPointer?>(nil)

    public init() {}

    deinit {
        handle.withLock { slot in
            if let easy = slot, let curl = try? LibCurl.shared() { curl.cleanup(easy) }
            slot = nil
        }
    }

    /// Sends one request and reads the whole reply (at most `maxReplyBytes`). `caFile`: PEM
    /// certificates to trust for HTTPS instead of the system's.
    public func perform(method: String, url: String, headers: [(String, String)], body: [UInt8],
                        connectTimeout: Double, timeout: Double, maxReplyBytes: Int,
                        caFile: String? = nil) throws(HTTPTransportError) -> HTTPReply {
        let curl: LibCurl
        do { curl = try LibCurl.shared() } catch { throw .library(error.description) }
        let result: Result<HTTPReply, HTTPTransportError> = handle.withLock { slot in
            if slot == nil { slot = curl.easyInit() }
            guard let easy = slot else { return .failure(.library("curl_easy_init failed")) }
            return Self.exchange(curl, easy, method: method, url: url, headers: headers, body: body,
                                 connectTimeout: connectTimeout, timeout: timeout, maxReplyBytes: maxReplyBytes,
                                 caFile: caFile)
        }
        return try result.get()
    }

    private static func exchange(_ curl: LibCurl, _ easy: UnsafeMutableRawPointer, method: String, url: String,
                                 headers: [(String, String)], body: [UInt8], connectTimeout: Double, timeout: Double,
                                 maxReplyBytes: Int, caFile: String?) -> Result<HTTPReply, HTTPTransportError> {
        curl.reset(easy)  // keeps the live connections and caches
        // libcurl copies string options, so the C string need only live for the call.
        if let caFile { _ = caFile.withCString { curl.setPointer(easy, CURLOPT_CAINFO, $0) } }
        let sink = ReplySink(limit: maxReplyBytes)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let source = RequestBodySource()
        defer { withExtendedLifetime(source) {} }
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in headers + [("Expect", "")] {
            list = curl.slistAppend(list, "\(name): \(value)")
        }
        defer { curl.slistFree(list) }
        // curl's own sentence for a failure ("Failed to connect to HOST port N …: Connection
        // refused") says more than curl_easy_strerror's fixed text; CURL_ERROR_SIZE is 256.
        var detail = [CChar](repeating: 0, count: 256)
        let code: CURLcode = detail.withUnsafeMutableBufferPointer { detailBuffer in url.withCString { urlText in
            method.withCString { methodText in
                body.withUnsafeBytes { bodyBytes in
                    _ = curl.setPointer(easy, CURLOPT_URL, urlText)
                    _ = curl.setLong(easy, CURLOPT_NOSIGNAL, 1)
                    _ = curl.setLong(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
                    _ = curl.setLong(easy, CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
                    _ = curl.setLong(easy, CURLOPT_TCP_KEEPALIVE, 1)
                    // Replies of 1 KB and more come gzip-compressed; libcurl decodes them (issue 28).
                    _ = curl.setPointer(easy, CURLOPT_ACCEPT_ENCODING, "gzip")
                    if method == "GET" {
                        _ = curl.setLong(easy, CURLOPT_HTTPGET, 1)
                    } else {
                        // The body is read once (`RequestBodySource`): libcurl cannot send it again on
                        // its own after a kept-alive connection closed with no reply.
                        _ = curl.setLong(easy, CURLOPT_POST, 1)
                        _ = curl.setOffset(easy, CURLOPT_POSTFIELDSIZE_LARGE, Int64(bodyBytes.count))
                        _ = curl.setCallback(easy, CURLOPT_READFUNCTION, RequestBodySource.readCallback)
                        _ = curl.setPointer(easy, CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque())
                        source.bytes = bodyBytes
                        if method != "POST" { _ = curl.setPointer(easy, CURLOPT_CUSTOMREQUEST, methodText) }
                    }
                    _ = curl.setPointer(easy, CURLOPT_HTTPHEADER, UnsafeRawPointer(list))
                    _ = curl.setCallback(easy, CURLOPT_WRITEFUNCTION, ReplySink.bodyCallback)
                    _ = curl.setPointer(easy, CURLOPT_WRITEDATA, context)
                    _ = curl.setCallback(easy, CURLOPT_HEADERFUNCTION, ReplySink.headerCallback)
                    _ = curl.setPointer(easy, CURLOPT_HEADERDATA, context)
                    _ = curl.setPointer(easy, CURLOPT_ERRORBUFFER, UnsafeRawPointer(detailBuffer.baseAddress))
                    return curl.perform(easy)
                }
            }
        } }
        _ = curl.setPointer(easy, CURLOPT_ERRORBUFFER, nil)
        guard code == CURLE_OK else {
            if sink.overflowed { return .failure(.replyTooLarge(maxReplyBytes)) }
            let detailText = detail.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            let message = !detailText.isEmpty ? detailText
                : curl.strerror(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
            var headerBytes = 0
            _ = curl.getLong(easy, CURLINFO_HEADER_SIZE, &headerBytes)
            switch code {
            case CURLE_SEND_FAIL_REWIND:
                // The kept-alive connection closed with no reply after the whole request went out
                // on it; libcurl wanted to send it again on a new one (`RequestBodySource`).
                return .failure(.closedBeforeReply(message, requestSent: true))
            case CURLE_COULDNT_CONNECT:
                return .failure(.refused(message))
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_OPERATION_TIMEDOUT:
                return .failure(.unreachable(message))
            case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR:
                guard headerBytes == 0 && sink.headers.isEmpty else { return .failure(.failed(message)) }
                // Sent in full: the request's header bytes went out and the body's count did
                // (curl_off_t is a 64-bit integer, as Int is here).
                var requestBytes = 0
                var uploaded = 0
                _ = curl.getLong(easy, CURLINFO_REQUEST_SIZE, &requestBytes)
                _ = curl.getLong(easy, CURLINFO_SIZE_UPLOAD_T, &uploaded)
                let sent = code != CURLE_SEND_ERROR && requestBytes > 0 && (method == "GET" || uploaded >= body.count)
                return .failure(.closedBeforeReply(message, requestSent: sent))
            default:
                return .failure(.failed(message))
            }
        }
        var status = 0
        _ = curl.getLong(easy, CURLINFO_RESPONSE_CODE, &status)
        return .success(HTTPReply(status: status, headers: sink.headers, body: sink.body))
    }
}

/// Collects a reply's headers and body from libcurl's callbacks, up to a size limit.
final class ReplySink {
    let limit: Int
    var body: [UInt8] = []
    var headers: [(String, String)] = []
    var overflowed = false

    init(limit: Int) { self.limit = limit }

    static let bodyCallback: LibCurl.DataCallback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let sink = Unmanaged<ReplySink>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        guard sink.body.count + length <= sink.limit else {
            sink.overflowed = true
            return 0  // makes curl stop with CURLE_WRITE_ERROR
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) { sink.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
        return length
    }

    static let headerCallback: LibCurl.DataCallback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let sink = Unmanaged<ReplySink>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        let line = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            sink.headers = []  // a new response (after 100 Continue or a redirect)
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon])
            sink.headers.append((name, trimmed(line[line.index(after: colon)...])))
        }
        return length
    }
}

/// A header value without the spaces, tabs and line ends around it.
func trimmed(_ text: Substring) -> String {
    var scalars = text.unicodeScalars[...]
    let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
    while let first = scalars.first, blank(first) { scalars.removeFirst() }
    while let last = scalars.last, blank(last) { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
}
