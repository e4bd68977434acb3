import CloudSyncCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where the cloud lives, parsed from `--cloud`: `sqlite:///abs/path` or `sqlite:relative/path`
/// (the embedded cloud), `postgres://…`/`postgresql://…` (PostgresCloud, opened through the
/// opener the executable registers) or `http://…`/`https://…` (a `cloudsync serve`, opened as
/// HTTPCloud by the CLI). Anything else is refused: a bare name must never quietly become a new
/// cloud in the current folder.
public enum CloudLocator: Sendable, Hashable {
    case sqlite(path: String)
    case postgres(url: String)
    case http(url: String)

    /// Every form `--cloud` accepts, for the messages that refuse one.
    public static let acceptedForms = "sqlite:///path/to/cloud.sqlite, postgres://USER@HOST/DB (or postgresql://), http://HOST:PORT or https://HOST:PORT"

    /// Parses a cloud URL. Malformed URLs and unknown schemes are `invalidArguments`.
    public init(parsing text: String) throws(CloudError) {
        if text.isEmpty { throw CloudError(.invalidArguments, "the cloud URL is empty") }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw CloudError(.invalidArguments, "the cloud URL holds control characters")
        }
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
            return
        }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            self = .http(url: text)
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
        if let colon = text.firstIndex(of: ":"), !text[..<colon].isEmpty,
           text[..<colon].unicodeScalars.allSatisfy({ $0.properties.isAlphabetic && $0.isASCII }) {
            throw CloudError(.invalidArguments,
                             "unsupported cloud URL scheme \(NameRules.quoted(String(text[..<colon]))); use \(CloudLocator.acceptedForms)")
        }
        throw CloudError(.invalidArguments,
                         "cloud URL \(NameRules.quoted(text)) has no scheme; use \(CloudLocator.acceptedForms)")
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

    /// True for a cloud kept in a file on this machine (the embedded SQLite cloud), false for
    /// a server.
    public var isEmbedded: Bool {
        if case .sqlite = self { return true }
        return false
    }

    /// The cloud as a person reads it: the file's path, or the URL without its password.
    public var displayName: String {
        switch self {
        case .sqlite(let path):
            return path
        case .postgres(let url), .http(let url):
            return CloudLocator.maskingPassword(url)
        }
    }

    /// The cloud as a URL that `--cloud` takes back: `sqlite:///abs/path` for a file (a
    /// relative path as `sqlite:path`), the server's URL without its password.
    public var displayURL: String {
        switch self {
        case .sqlite(let path):
            // `%` is the one character the parser decodes: written as %25 it reads back.
            let escaped = path.split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%25")
            return "sqlite:" + (path.hasPrefix("/") ? "//" : "") + escaped
        case .postgres(let url), .http(let url):
            return CloudLocator.maskingPassword(url)
        }
    }

    /// The folder that must exist before an embedded cloud's file can be created there; nil for
    /// a server.
    public var localFolder: String? {
        guard case .sqlite(let path) = self else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// True when the cloud certainly holds nothing yet: an embedded cloud whose file does not
    /// exist, which opening would create. A server is never known to be empty from here.
    /// Read-only callers (completion) ask this so they never create a cloud.
    public var isKnownAbsent: Bool {
        guard case .sqlite(let path) = self else { return false }
        return access(path, F_OK) != 0
    }

    /// `scheme://user:password@host…` with the password replaced by `***`.
    static func maskingPassword(_ url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return url }
        let rest = parts[1]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return parts[0] + "://" + rest[..<colon] + ":***" + rest[at...]
    }

    /// Opens the service this locator names.
    public func open(clock: @escaping CloudClock = systemClock) throws(CloudError) -> any CloudService {
        switch self {
        case .sqlite(let path):
            return try SQLiteCloud(path: path, clock: clock)
        case .postgres(let url):
            if let opener = CloudLocator.opener(forScheme: "postgres") { return try opener(url, clock) }
            throw CloudError(.serviceUnavailable,
                             "the PostgreSQL backend is not part of this build yet; use the embedded sqlite:// cloud")
        case .http:
            // HTTPCloud lives above this module (CloudSyncWebServices); the command line opens it.
            throw CloudError(.serviceUnavailable,
                             "an http(s):// cloud is opened through HTTPCloud (CommandContext.openCloud), not here")
        }
    }
}

/// Opens a service from its URL: what a backend outside this module registers.
public typealias CloudOpener = @Sendable (_ url: String, _ clock: @escaping CloudClock) throws(CloudError) -> any CloudService

/// A registered opener; the newest registration of a scheme comes first.
///
/// A list of a plain final class rather than a `[String: CloudOpener]`: the executable registers
/// at every start, and the first insert into that dictionary made the Swift runtime build the
/// metadata of a dictionary of typed-throws function values from their mangled names, about a
/// quarter of the CPU time of a short command such as `otp code` (issue 16). A non-generic
/// class has static metadata.
private final class CloudOpenerEntry: Sendable {
    let scheme: String
    let opener: CloudOpener
    let next: CloudOpenerEntry?

    init(scheme: String, opener: @escaping CloudOpener, next: CloudOpenerEntry?) {
        self.scheme = scheme
        self.opener = opener
        self.next = next
    }
}

/// The registered openers.
private let cloudOpeners = Mutex<CloudOpenerEntry?>(nil)

extension CloudLocator {
    /// Makes `open` use `opener` for URLs of `scheme` (`postgres` covers `postgres://` and
    /// `postgresql://`). Backends that bring their own libraries (PostgreSQL's libpq) live in
    /// their own modules and register here at the composition root, so this module does not
    /// depend on them; the library itself loads only when such a URL is opened.
    public static func register(scheme: String, opener: @escaping CloudOpener) {
        cloudOpeners.withLock { $0 = CloudOpenerEntry(scheme: scheme, opener: opener, next: $0) }
    }

    /// The opener registered for `scheme`, if any (the latest registration).
    static func opener(forScheme scheme: String) -> CloudOpener? {
        cloudOpeners.withLock { first in
            var entry = first
            while let current = entry {
                if current.scheme == scheme { return current.opener }
                entry = current.next
            }
            return nil
        }
    }
}
