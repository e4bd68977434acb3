import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebProtocol
import CloudSyncWebServer

// libFuzzer target: the request router of `cloudsync serve` before any handler: the raw request
// target check (`RequestPath.check(rawTarget:)`, NUL and dot segments, raw or percent-encoded)
// and `WebServicesPath.parse` of the decoded path. The input is a request target as sent.
// Checks: no crash; a target the raw check passes decodes (by this file's own decoder) to a
// path with no NUL and no `.`/`..` segment, which the decoded check passes too; a path
// `WebServicesPath.parse` accepts prints back as itself (`text`).

/// `%XX` decoded; other bytes as they are (an oracle written apart from the server's).
func decodedPath(_ target: [UInt8]) -> [UInt8] {
    let path = target.prefix { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
    var out: [UInt8] = []
    var index = path.startIndex
    while index < path.endIndex {
        // Two hex digits only: `UInt8("+0", radix: 16)` alone would take a sign as a digit.
        if path[index] == UInt8(ascii: "%"), path.endIndex - index >= 3,
           path[(index + 1)...(index + 2)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
           let value = UInt8(String(decoding: path[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
            out.append(value)
            index += 3
        } else {
            out.append(path[index])
            index += 1
        }
    }
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func routerFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let target = Array(UnsafeBufferPointer(start: data, count: size))
    guard (try? RequestPath.check(rawTarget: target)) != nil else { return 0 }
    let path = decodedPath(target)
    if path.contains(0) { fatalError("a NUL passed the raw check: \(target)") }
    let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    if segments.contains(where: { $0.elementsEqual(".".utf8) || $0.elementsEqual("..".utf8) }) {
        fatalError("a dot segment passed the raw check: \(target)")
    }
    if (try? RequestPath.check(decoded: path)) == nil { fatalError("the decoded check refused what the raw one passed") }
    guard let text = String(validating: path, as: UTF8.self), let parsed = try? WebServicesPath.parse(text) else { return 0 }
    if parsed.text != text { fatalError("\(text) parsed and printed back as \(parsed.text)") }
    return 0
}
