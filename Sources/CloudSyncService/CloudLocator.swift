import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the cloud lives, parsed from `--cloud` by the backends registered with `register`
/// (`CloudBackendRegistration`): `sqlite:///abs/path` or `sqlite:relative/path` (the embedded
/// cloud), `postgres://…`/`postgresql://…` (PostgresCloud) or `http://…`/`https://…` (a
/// `cloudsync serve`, opened as HTTPCloud). Anything else is refused: a bare name must never
/// quietly become a new cloud in the current folder.
public struct CloudLocator: Sendable, Hashable {
    /// The name of the backend that parsed the URL (`CloudBackendRegistration.name`).
    public let backend: String
    /// The URL as given.
    public let url: String
    /// The file of a cloud kept on this machine (a `.file` backend); nil for a server.
    public let localPath: String?

    /// A locator of `backend`; `localPath` for a cloud kept in a file on this machine.
    public init(backend: String, url: String, localPath: String? = nil) {
        self.backend = backend
        self.url = url
        self.localPath = localPath
    }

    /// Every form `--cloud` accepts, for the messages that refuse one.
    public static var acceptedForms: String {
        backends.compactMap(\.acceptedForms).joined(separator: ", ")
    }

    /// Parses a cloud URL with the registered backends. Malformed URLs and unknown schemes are
    /// `invalidArguments`.
    public init(parsing text: String) throws(CloudError) {
        if text.isEmpty { throw CloudError(.invalidArguments, "the cloud URL is empty") }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw CloudError(.invalidArguments, "the cloud URL holds control characters")
        }
        for registered in CloudLocator.backends {
            switch registered.form {
            case .url(let prefixes):
                if prefixes.contains(where: { text.hasPrefix($0) }) {
                    self.init(backend: registered.name, url: text)
                    return
                }
            case .file:
                if let path = try CloudLocator.filePath(text, scheme: registered.name) {
                    self.init(backend: registered.name, url: text, localPath: path)
                    return
                }
            }
        }
        if let colon = text.firstIndex(of: ":"), !text[..<colon].isEmpty,
           text[..<colon].unicodeScalars.allSatisfy({ $0.properties.isAlphabetic && $0.isASCII }) {
            throw CloudError(.invalidArguments,
                             "unsupported cloud URL scheme \(NameRules.quoted(String(text[..<colon]))); use \(CloudLocator.acceptedForms)")
        }
        throw CloudError(.invalidArguments,
                         "cloud URL \(NameRules.quoted(text)) has no scheme; use \(CloudLocator.acceptedForms)")
    }

    /// The path of a file URL `scheme:///abs/path` or `scheme:relative/path`; nil for a URL of
    /// another scheme.
    static func filePath(_ text: String, scheme: String) throws(CloudError) -> String? {
        if text.hasPrefix(scheme + "://") {
            let rest = String(text.dropFirst(scheme.count + 3))
            guard rest.hasPrefix("/") else {
                throw CloudError(.invalidArguments, "cloud URL '\(text)' must be \(scheme):///absolute/path (three slashes)")
            }
            return CloudLocator.percentDecoded(rest)
        }
        if text.hasPrefix(scheme + ":") {
            let rest = String(text.dropFirst(scheme.count + 1))
            guard !rest.isEmpty else { throw CloudError(.invalidArguments, "cloud URL '\(text)' names no file") }
            return CloudLocator.percentDecoded(rest)
        }
        return nil
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
    public var isEmbedded: Bool { localPath != nil }

    /// The cloud as a person reads it: the file's path, or the URL without its password.
    public var displayName: String {
        localPath ?? CloudLocator.maskingPassword(url)
    }

    /// The cloud as a URL that `--cloud` takes back: `sqlite:///abs/path` for a file (a
    /// relative path as `sqlite:path`), the server's URL without its password.
    public var displayURL: String {
        guard let path = localPath else { return CloudLocator.maskingPassword(url) }
        // `%` is the one character the parser decodes: written as %25 it reads back.
        let escaped = path.split(separator: "%", omittingEmptySubsequences: false).joined(separator: "%25")
        return backend + ":" + (path.hasPrefix("/") ? "//" : "") + escaped
    }

    /// The folder that must exist before an embedded cloud's file can be created there; nil for
    /// a server.
    public var localFolder: String? {
        guard let path = localPath else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// True when the cloud certainly holds nothing yet: an embedded cloud whose file does not
    /// exist, which opening would create. A server is never known to be empty from here.
    /// Read-only callers (completion) ask this so they never create a cloud.
    public var isKnownAbsent: Bool {
        guard let path = localPath else { return false }
        return access(path, F_OK) != 0
    }

    /// `scheme://user:password@host…` with the password replaced by `***`.
    public static func maskingPassword(_ url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return url }
        let rest = parts[1]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return url }
        return parts[0] + "://" + rest[..<colon] + ":***" + rest[at...]
    }

    /// Opens the service this locator names, with the backend that parsed it.
    public func open(_ request: CloudOpenRequest = CloudOpenRequest()) throws -> any CloudService {
        guard let registered = CloudLocator.backend(named: backend) else {
            throw CloudError(.serviceUnavailable, "no backend '\(backend)' is registered in this build")
        }
        return try registered.open(self, request)
    }

    /// Opens the service this locator names, with `clock` and the other defaults.
    public func open(clock: @escaping CloudClock) throws -> any CloudService {
        try open(CloudOpenRequest(clock: clock))
    }
}
