#if canImport(Glibc)
import Glibc
#endif

/// The server's listening TCP socket, made here rather than by libmicrohttpd so that any host name
/// or address works and port 0's choice can be read back (`getsockname`).
struct ListeningSocket {
    let fd: Int32
    let port: UInt16
    let isIPv6: Bool

    /// Binds `host:port` (the first resolved address that binds) and listens.
    init(host: String, port: UInt16, backlog: Int32) throws(HTTPServerError) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let anyHost = host.isEmpty || host == "*"
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = anyHost ? getaddrinfo(nil, String(port), &hints, &list) : getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else {
            throw .cannotResolve(host, String(cString: gai_strerror(rc)))
        }
        defer { freeaddrinfo(list) }
        // Every address: prefer IPv6's [::] (dual stack) for "any host" when it is offered first.
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            let info = current.pointee
            let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { lastError = String(cString: strerror(errno)); continue }
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
            if info.ai_family == AF_INET6 {
                var off: Int32 = 0
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
            }
            guard bind(fd, info.ai_addr, info.ai_addrlen) == 0, listen(fd, backlog) == 0 else {
                lastError = String(cString: strerror(errno))
                close(fd)
                continue
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
            }
            self.fd = fd
            self.isIPv6 = info.ai_family == AF_INET6
            self.port = Self.port(of: &storage)
            return
        }
        throw .cannotListen("\(host.contains(":") ? "[\(host)]" : host):\(port)", lastError)
    }

    private static func port(of storage: inout sockaddr_storage) -> UInt16 {
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { raw in
            if family == sa_family_t(AF_INET6) {
                return raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
            return raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// The numeric address of a socket address (`127.0.0.1`, `::1`), without the port; "" if unknown.
    static func numericHost(_ address: UnsafePointer<sockaddr>?) -> String {
        guard let address else { return "" }
        let length = address.pointee.sa_family == sa_family_t(AF_INET6)
            ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, socklen_t(length), &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
        else { return "" }
        var host = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if host.hasPrefix("::ffff:") && host.contains(".") { host.removeFirst(7) }
        return host
    }
}
