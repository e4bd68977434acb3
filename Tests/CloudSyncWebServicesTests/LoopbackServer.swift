#if canImport(Glibc)
import Glibc
#endif
import CloudSyncWebClient
import CloudSyncWebProtocol
import CloudSyncWebServer
import Synchronization

/// A test-only HTTP/1.1 server on 127.0.0.1 (an ephemeral port): one thread accepts, one
/// thread per connection reads requests with `Content-Length` bodies (keep-alive), hands each
/// to `respond` and writes the answer. Enough to drive HTTPCloud over real sockets until the
/// libmicrohttpd server of `cloudsync serve` replaces it.
final class LoopbackServer: @unchecked Sendable {
    typealias Responder = @Sendable (WebServicesRequest) -> WebServicesResponse

    let port: Int
    private let listener: Int32
    private let respond: Responder
    /// `Authorization: Bearer TOKEN` → account name; nil when unknown.
    private let authenticate: @Sendable (String) -> String?
    private let state = Mutex<(connections: [Int32], accepted: Int, requests: Int, stopped: Bool)>(([], 0, 0, false))

    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// Connections accepted so far (connection reuse keeps this at one per client session).
    var acceptedConnections: Int { state.withLock { $0.accepted } }
    var requestCount: Int { state.withLock { $0.requests } }

    /// Closes the connection without a reply after reading a request for which it is true.
    private let drop: (@Sendable (WebServicesRequest) -> Bool)?
    /// The first this many connections are closed as soon as accepted, nothing read.
    private let closeAtAccept: Int

    init(authenticate: @escaping @Sendable (String) -> String? = { $0.hasPrefix("token-") ? String($0.dropFirst(6)) : nil },
         closeAtAccept: Int = 0, drop: (@Sendable (WebServicesRequest) -> Bool)? = nil,
         respond: @escaping Responder) throws {
        self.respond = respond
        self.drop = drop
        self.closeAtAccept = closeAtAccept
        self.authenticate = authenticate
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackError.socket("socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw LoopbackError.socket("bind/listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        spawn { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// Stops accepting and closes every connection.
    func stop() {
        let fds: [Int32] = state.withLock { s in
            guard !s.stopped else { return [] }
            s.stopped = true
            return s.connections + [listener]
        }
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let (stopped, closing) = state.withLock { s in
                s.accepted += 1
                s.connections.append(fd)
                return (s.stopped, s.accepted <= closeAtAccept)
            }
            if stopped { shutdown(fd, Int32(SHUT_RDWR)) }
            if closing {
                state.withLock { $0.connections.removeAll { $0 == fd } }
                close(fd)
                continue
            }
            spawn { [self] in serve(fd) }
        }
    }

    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        defer {
            state.withLock { $0.connections.removeAll { $0 == fd } }
            close(fd)
        }
        while let request = readRequest(fd, &buffer) {
            state.withLock { $0.requests += 1 }
            if let drop, drop(request) { return }
            let response = respond(request)
            var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\nContent-Length: \(response.body.count)\r\n"
            for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
            head += "\r\n"
            guard writeAll(fd, Array(head.utf8) + response.body) else { return }
        }
    }

    /// Reads one request (head, then `Content-Length` bytes of body); nil at end of stream.
    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> WebServicesRequest? {
        var headEnd: Int?
        while true {
            if let end = find(buffer, [13, 10, 13, 10]) { headEnd = end; break }
            guard fill(fd, &buffer) else { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let requestLine = lines.removeFirst().split(separator: " ").map(String.init)
        guard requestLine.count == 3 else { return nil }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " })))
        }
        let length = Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
        let bodyStart = headEnd + 4
        while buffer.count < bodyStart + length {
            guard fill(fd, &buffer) else { return nil }
        }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        let target = requestLine[1]
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        var query: [(String, String)] = []
        if pathEnd < target.endIndex {
            for pair in target[target.index(after: pathEnd)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { percentDecode(String($0)) }
                query.append((parts[0], parts.count > 1 ? parts[1] : ""))
            }
        }
        var account: String?
        if let auth = headers.first(where: { $0.0.lowercased() == "authorization" })?.1, auth.hasPrefix("Bearer ") {
            account = authenticate(String(auth.dropFirst(7)))
        } else if let token = query.first(where: { $0.0 == "ckWebAuthToken" })?.1 {
            account = authenticate(token)
        }
        return WebServicesRequest(method: requestLine[0], path: String(target[..<pathEnd]), query: query, headers: headers,
                                  body: body, account: account)
    }

    private func fill(_ fd: Int32, _ buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    private func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<(i + needle.count)]) == needle { return i }
        return nil
    }

    private func percentDecode(_ text: String) -> String {
        var out: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2, let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(value)
                bytes = bytes.dropFirst(2)
            } else {
                out.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 429: "Too Many Requests"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

enum LoopbackError: Error { case socket(String) }

/// Runs `body` on a new detached thread.
func spawn(_ body: @escaping @Sendable () -> Void) {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, context)
    precondition(created == 0, "pthread_create failed")
    pthread_detach(thread)
}
