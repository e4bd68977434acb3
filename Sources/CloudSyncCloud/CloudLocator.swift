import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the cloud lives, parsed from `--cloud`: `sqlite:///abs/path`, `sqlite:relative/path`,
/// a bare path, or `postgres://…` (a later backend).
public enum CloudLocator: Sendable, Hashable {
    case sqlite(path: String)
    case postgres(url: String)

    /// Parses a cloud URL. Malformed URLs are `invalidArguments`.
    public init(parsing text: String) throws(CloudError) {
        if text.isEmpty { throw CloudError(.invalidArguments, "the cloud URL is empty") }
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
            return
        }
        if text.hasPrefix("sqlite://") {
            let rest = String(text.dropFirst("sqlite://".count))
            guard rest.hasPrefix("/") else {
                throw CloudError(.invalidArguments, "cloud URL '\(text)' must be sqlite:///absolute/path (three slashes)")
            }
            self = .sqlite(path: CloudLocator.percentDecoded(rest))
            return
        }
        if text.hasPrefix("sqlite:") {
            let rest = String(text.dropFirst("sqlite:".count))
            guard !rest.isEmpty else { throw CloudError(.invalidArguments, "cloud URL '\(text)' names no file") }
            self = .sqlite(path: CloudLocator.percentDecoded(rest))
            return
        }
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter }), text.contains("://") {
            throw CloudError(.invalidArguments,
                             "unsupported cloud URL scheme '\(text[..<colon])'; use sqlite:///path or postgres://…")
        }
        self = .sqlite(path: text)
    }

    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let b = iterator.next() {
            if b == UInt8(ascii: "%"), let h = iterator.next(), let l = iterator.next(),
               let value = UInt8(String(decoding: [h, l], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Opens the service this locator names.
    public func open(clock: @escaping CloudClock = systemClock) throws(CloudError) -> any CloudService {
        switch self {
        case .sqlite(let path):
            return try SQLiteCloud(path: path, clock: clock)
        case .postgres:
            throw CloudError(.serviceUnavailable,
                             "the PostgreSQL backend is not part of this build yet; use the embedded sqlite:// cloud")
        }
    }
}
