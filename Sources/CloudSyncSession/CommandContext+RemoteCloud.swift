import CloudSyncCLI
import CloudSyncCloud
import CloudSyncCore
import CloudSyncCrypto
import CloudSyncWebServices
#if canImport(Glibc)
import Glibc
#endif

extension CommandContext {
    /// Opens the cloud of `locator`: an `http://`/`https://` URL is `HTTPCloud` with the token of
    /// `remoteToken(for:)` (and `$CLOUDSYNC_CA_FILE`, PEM certificates to trust for a server with
    /// its own certificate); the others are opened by the locator.
    public func openCloud(_ locator: CloudLocator) throws -> any CloudService {
        guard case .http(let url) = locator else { return try locator.open() }
        let base = Self.normalizedServerURL(url)
        let token = remoteToken(for: base)
        if let token, !token.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) {
            throw CLIError.usage("the token for \(base) holds spaces or control characters; check CLOUDSYNC_TOKEN or the config file")
        }
        let caFile = environment["CLOUDSYNC_CA_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        return HTTPCloud(configuration: HTTPCloudConfiguration(baseURL: base, defaultContainer: settings.container,
                                                               token: { _ in token }, caFile: caFile))
    }

    /// The token sent to a `cloudsync serve` at `url`: `$CLOUDSYNC_TOKEN`, else the config file's
    /// `token`, else what `cloudsync login URL` stored; nil when there is none.
    public func remoteToken(for url: String) -> String? {
        if let value = environment["CLOUDSYNC_TOKEN"], !value.isEmpty { return value }
        if let entry = ConfigFile.load(path: settings.configPath).entries["token"], !entry.value.isEmpty { return entry.value }
        guard case .contents(let bytes) = FileSystem.readFile(loginTokenPath(for: url), limit: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return text.isEmpty ? nil : text
    }

    /// Where `cloudsync login URL` keeps the token of a server (0600, in a 0700 folder under the
    /// state folder), keyed by the SHA-256 of the normalised URL.
    public func loginTokenPath(for url: String) -> String {
        settings.stateDirectory + "/logins/" + Hex.encode(SHA256.digest(Array(Self.normalizedServerURL(url).utf8)))
    }

    /// A server URL without trailing slashes.
    public static func normalizedServerURL(_ url: String) -> String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// Stores the login token of a server (0600).
    public func storeLoginToken(_ token: String, for url: String) throws {
        let path = loginTokenPath(for: url)
        try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: 0o700)
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.failed("cannot write \(temporary): \(SystemInfo.errorDescription(errno))") }
        let status = FileSystem.writeAll(fd, Array((token + "\n").utf8))
        close(fd)
        guard status == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CLIError.failed("cannot write \(path): \(SystemInfo.errorDescription(errno))")
        }
    }
}
