/// What the server logs of one answered request: one line each, given to the server's log closure.
public struct HTTPRequestLogEntry: Sendable, Hashable {
    /// Query parameters whose values are secrets: logged as `name=-`.
    public static let secretQueryParameters: Set<String> = ["ckWebAuthToken", "ckAPIToken"]

    public var method: String
    /// The path and query string as logged: secrets dropped, bytes outside printable ASCII escaped.
    public var target: String
    public var status: Int
    /// From the first byte of the handler's work (headers received) to the response being queued.
    public var milliseconds: Double
    /// `HTTPResponse.logAccount`, or nil.
    public var account: String?
    public var remoteAddress: String

    public init(method: String, target: String, status: Int, milliseconds: Double, account: String?,
                remoteAddress: String) {
        self.method = method
        self.target = target
        self.status = status
        self.milliseconds = milliseconds
        self.account = account
        self.remoteAddress = remoteAddress
    }

    /// `POST /database/1/… alice 200 3.2ms 127.0.0.1`, no line break; `-` for no account.
    public var line: String {
        let tenths = Int((milliseconds * 10).rounded())
        let account = account.map { Self.escaped($0, keeping: []) } ?? "-"
        return "\(Self.escaped(method, keeping: [])) \(target) \(account) \(status) \(tenths / 10).\(tenths % 10)ms \(remoteAddress)"
    }

    /// The logged target of `path` and `query`: secret values dropped, unsafe bytes %-escaped.
    public static func target(path: String, query: [HTTPRequest.QueryItem]) -> String {
        var target = escaped(path, keeping: [0x2F])
        if !query.isEmpty {
            target += "?" + query.map { item in
                let value = secretQueryParameters.contains(item.name) ? "-" : escaped(item.value, keeping: [])
                return escaped(item.name, keeping: []) + "=" + value
            }.joined(separator: "&")
        }
        return target
    }

    /// `text` with every byte outside printable ASCII, space, `%`, `&`, `=`, `?`, `#` and `/`
    /// (but those in `keeping`) written `%XX`: a log line cannot be split or forged by a request.
    /// (Bytes, not a `Set`: this runs on every byte of every logged request.)
    static func escaped(_ text: String, keeping: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            let special = byte == 0x25 || byte == 0x26 || byte == 0x3D || byte == 0x3F || byte == 0x23 || byte == 0x2F
            if byte > 0x20 && byte < 0x7F && (!special || keeping.contains(byte)) {
                out.append(byte)
            } else {
                out += [0x25, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
