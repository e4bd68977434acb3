#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP client on 127.0.0.1 for what curl will not send (partial or broken requests).
public struct RawClient: Sendable {
    public let fd: Int32

    /// Connects to 127.0.0.1:`port` from `source` (another loopback address such as 127.0.0.2
    /// when given: the server sees another peer). Sends block at most `sendTimeoutSeconds` when
    /// given (a server that stops reading a body), without limit otherwise.
    public init(port: UInt16, receiveTimeoutSeconds: Int = 20, sendTimeoutSeconds: Int? = nil, from source: String? = nil) {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let sendTimeoutSeconds {
            var sendTimeout = timeval(tv_sec: sendTimeoutSeconds, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        }
    }

    /// Sends all of `text`; false when the connection is closed or reset.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends all of `bytes`; false when the connection is closed or reset.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool { sendCounting(bytes) == bytes.count }

    /// The bytes written before the connection failed (all of them when it did not).
    public func sendCounting(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return offset }
            offset += n
        }
        return offset
    }

    /// Everything the server sends until it closes the connection (or the receive timeout).
    public func readAll() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One response read up to the end of its body (by Content-Length).
    public func readResponse() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let text = String(decoding: out, as: UTF8.self)
            if let end = text.firstRange(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).split(separator: " ").first ?? "") } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { return text }
            }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return text }
            out += buffer[0..<n]
        }
    }

    public func close() { _ = Glibc.close(fd) }
}
