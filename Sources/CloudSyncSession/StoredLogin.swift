import CloudSyncCLI
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// What `cloudsync login URL` keeps for a server (one file, 0600, in a 0700 folder): the token
/// on the first line and, on a line `account NAME`, the account the server said it is for.
/// A file of an older version holds the token alone; its account is asked once and added.
public struct StoredLogin: Sendable, Equatable {
    /// The bearer token.
    public var token: String
    /// The token's account, as `users/current` answered; nil when not known yet.
    public var account: String?

    /// A login of `token` for `account`.
    public init(token: String, account: String?) {
        self.token = token
        self.account = account
    }

    /// The login stored at `path`, or nil when there is none (or it holds no token).
    public static func read(_ path: String) -> StoredLogin? {
        guard case .contents(let bytes) = FileSystem.readFile(path, limit: 4096) else { return nil }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { $0.filter { !$0.isWhitespace || $0 == " " } }
        guard let first = lines.first else { return nil }
        let token = first.filter { !$0.isWhitespace }
        guard !token.isEmpty else { return nil }
        var account: String?
        for line in lines.dropFirst() where line.hasPrefix("account ") {
            let name = String(line.dropFirst("account ".count)).filter { !$0.isWhitespace }
            if Settings.isValidName(name) { account = name }
        }
        return StoredLogin(token: token, account: account)
    }

    /// Writes the login to `path` (0600, atomically; the folder is made 0700).
    public func write(to path: String) throws {
        try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: 0o700)
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.failed("cannot write \(temporary): \(SystemInfo.errorDescription(errno))") }
        let text = token + "\n" + (account.map { "account \($0)\n" } ?? "")
        let status = FileSystem.writeAll(fd, Array(text.utf8))
        close(fd)
        guard status == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CLIError.failed("cannot write \(path): \(SystemInfo.errorDescription(errno))")
        }
    }
}

extension CommandContext {
    /// Stores the login of a server (0600): its token and the account it is for.
    public func storeLogin(_ login: StoredLogin, for url: String) throws {
        try login.write(to: loginTokenPath(for: url))
    }
}
