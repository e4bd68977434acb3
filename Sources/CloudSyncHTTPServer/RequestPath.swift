/// Why a request's path is refused before any handler sees it (`HTTPRefusal.badTarget`, 400).
public enum RequestPathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A NUL character, raw or as `%00`: C code would end the path there, so the path a
    /// handler sees would not be the path that was sent.
    case nul
    /// A `.` or `..` segment, raw or percent-encoded (`%2e%2e`): the path would mean one thing to
    /// a proxy or log reader that resolves it and another to the server, which does not.
    case dotSegment(String)

    public var description: String {
        switch self {
        case .nul: "the request path holds a NUL character (%00)"
        case .dotSegment(let segment): "the request path holds a '\(segment)' segment; send it without '.' or '..' segments"
        }
    }
}

/// The one check of a request's path that the server makes for every handler: no NUL and no
/// dot segments. The server applies it to the raw request target (before libmicrohttpd decodes
/// it into a C string, which a `%00` would cut short); a router applies it to the decoded path too.
public enum RequestPath {
    /// Checks a percent-decoded path.
    public static func check(decoded path: some Collection<UInt8>) throws(RequestPathError) {
        var segmentStart = true
        var dots = 0
        for byte in path {
            switch byte {
            case 0: throw .nul
            case UInt8(ascii: "/"):
                if segmentStart, dots > 0 { throw .dotSegment(String(repeating: ".", count: dots)) }
                segmentStart = true
                dots = 0
            case UInt8(ascii: ".") where segmentStart && dots < 2:
                dots += 1
            default:
                segmentStart = false
                dots = 0
            }
        }
        if segmentStart, dots > 0 { throw .dotSegment(String(repeating: ".", count: dots)) }
    }

    /// Checks a raw request target as sent on the request line (`/path?query`): its path part,
    /// percent-decoded. The query string is not checked here.
    public static func check(rawTarget target: some Collection<UInt8>) throws(RequestPathError) {
        let path = target.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        try check(decoded: percentDecoded(path))
    }

    /// `bytes` with every `%XX` (two hex digits) replaced by its byte; other `%` are kept, as
    /// libmicrohttpd keeps them.
    static func percentDecoded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
