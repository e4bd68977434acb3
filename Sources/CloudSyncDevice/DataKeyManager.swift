import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto
#if canImport(Glibc)
import Glibc
#endif

/// The per-account data key that encrypts fields. The first device that needs it makes it; the
/// cloud keeps it only wrapped (AES-256-GCM) by a key derived from the user's sync passphrase
/// with scrypt, its parameters stored beside it, in the account's key-value store. Each device
/// unlocks once and keeps the unwrapped key in a 0600 file.
public struct DataKeyManager {
    /// The key-value key of the wrapped data key.
    public static let wrappedKeyName = "cloudsync.data-key"

    public let keyValues: KeyValueSync
    /// Where this device keeps the unwrapped key (mode 0600).
    public let keyFile: String
    /// Parameters for wrapping a new or re-wrapped key.
    public var kdf: Scrypt

    public init(keyValues: KeyValueSync, keyFile: String, kdf: Scrypt = .passphraseDefault) {
        self.keyValues = keyValues
        self.keyFile = keyFile
        self.kdf = kdf
    }

    /// The data key if this device has unlocked it, without asking for anything.
    public func localKey() throws(CloudError) -> [UInt8]? {
        guard let text = try SecretFile.read(keyFile) else { return nil }
        guard let key = Base64.decode(text.filter { !$0.isWhitespace }), key.count == AESGCM.keySize else {
            throw CloudError(.badDatabase, "the data key file \(keyFile) is damaged; remove it and unlock again")
        }
        return key
    }

    /// The data key: from this device, else unwrapped from the cloud with the passphrase, else
    /// (for the account's first device) made, wrapped and stored. `passphrase` is asked only
    /// when needed; `newPassphrase` (default: `passphrase`) when the key is made, so that a
    /// terminal can ask for it twice.
    public func unlock(passphrase: () throws(CloudError) -> String,
                       newPassphrase: (() throws(CloudError) -> String)? = nil) throws(CloudError) -> [UInt8] {
        if let key = try localKey() { return key }
        try keyValues.sync()
        let container = keyValues.request.container
        if case .json(let wrapped)? = try keyValues.store.keyValue(container: container, DataKeyManager.wrappedKeyName) {
            let key = try DataKeyManager.unwrap(wrapped, passphrase: try passphrase())
            try SecretFile.write(keyFile, Base64.encode(key))
            return key
        }
        let key = SecureRandom.bytes(AESGCM.keySize)
        let chosen: String
        if let newPassphrase { chosen = try newPassphrase() } else { chosen = try passphrase() }
        let wrapped = try wrap(key, passphrase: chosen)
        try keyValues.store.setKeyValue(container: container, DataKeyManager.wrappedKeyName, .json(wrapped), now: systemClock())
        try keyValues.sync()
        try SecretFile.write(keyFile, Base64.encode(key))
        return key
    }

    /// Re-wraps the data key under a new passphrase (the data itself is not re-encrypted).
    public func changePassphrase(old: String, new: String) throws(CloudError) {
        try keyValues.sync()
        let container = keyValues.request.container
        guard case .json(let wrapped)? = try keyValues.store.keyValue(container: container, DataKeyManager.wrappedKeyName) else {
            throw CloudError(.unknownItem, "this account has no data key yet; nothing to re-wrap")
        }
        let key = try DataKeyManager.unwrap(wrapped, passphrase: old)
        try keyValues.store.setKeyValue(container: container, DataKeyManager.wrappedKeyName, .json(try wrap(key, passphrase: new)),
                                        now: systemClock())
        try keyValues.sync()
        try SecretFile.write(keyFile, Base64.encode(key))
    }

    /// Forgets the unwrapped key on this device.
    public func lock() { unlink(keyFile) }

    func wrap(_ key: [UInt8], passphrase: String) throws(CloudError) -> JSONValue {
        guard !passphrase.isEmpty else { throw CloudError(.invalidArguments, "the sync passphrase must not be empty") }
        let salt = SecureRandom.bytes(16), nonce = SecureRandom.bytes(AESGCM.nonceSize)
        do {
            let kek = try kdf.derive(password: Array(passphrase.utf8), salt: salt, length: 32)
            let sealed = try AESGCM.seal(key, key: kek, nonce: nonce, aad: Array("cloudsync data key v1".utf8))
            return .object([("version", .int(1)), ("kdf", .string("scrypt")), ("n", .int(Int64(kdf.n))), ("r", .int(Int64(kdf.r))),
                            ("p", .int(Int64(kdf.p))), ("salt", .string(Base64.encode(salt))),
                            ("nonce", .string(Base64.encode(nonce))), ("wrappedKey", .string(Base64.encode(sealed)))])
        } catch {
            throw CloudError(.internalError, "cannot wrap the data key: \(error)")
        }
    }

    /// Checks `passphrase` against a wrapped key: `permissionFailure` when it is wrong.
    public static func verify(_ wrapped: JSONValue, passphrase: String) throws(CloudError) {
        _ = try unwrap(wrapped, passphrase: passphrase)
    }

    static func unwrap(_ wrapped: JSONValue, passphrase: String) throws(CloudError) -> [UInt8] {
        guard wrapped["version"]?.int64Value == 1, wrapped["kdf"]?.stringValue == "scrypt",
              let n = wrapped["n"]?.int64Value, let r = wrapped["r"]?.int64Value, let p = wrapped["p"]?.int64Value,
              n > 1, n <= 1 << 22, r >= 1, r <= 64, p >= 1, p <= 64,
              let salt = wrapped["salt"]?.stringValue.flatMap(Base64.decode),
              let nonce = wrapped["nonce"]?.stringValue.flatMap(Base64.decode),
              let sealed = wrapped["wrappedKey"]?.stringValue.flatMap(Base64.decode) else {
            throw CloudError(.badDatabase, "the wrapped data key in the cloud is damaged or of an unknown version")
        }
        do {
            let kek = try Scrypt(n: UInt64(n), r: UInt64(r), p: UInt64(p)).derive(password: Array(passphrase.utf8), salt: salt, length: 32)
            return try AESGCM.open(sealed, key: kek, nonce: nonce, aad: Array("cloudsync data key v1".utf8))
        } catch CryptoError.authenticationFailed {
            throw CloudError(.permissionFailure, "wrong sync passphrase: the data key did not unlock")
        } catch {
            throw CloudError(.badDatabase, "cannot unwrap the data key: \(error)")
        }
    }
}

/// Small files holding secrets: written 0600 (atomically, via a temporary file), folders 0700.
public enum SecretFile {
    /// The file's text, or nil when it does not exist.
    public static func read(_ path: String) throws(CloudError) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw CloudError(.badDatabase, "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > 1 << 20 { throw CloudError(.badDatabase, "\(path) is too large for a key file") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `text` to `path` with mode 0600, creating the folder with mode 0700.
    public static func write(_ path: String, _ text: String) throws(CloudError) {
        if let slash = path.lastIndex(of: "/") {
            var current = path.hasPrefix("/") ? "" : "."
            for part in path[..<slash].split(separator: "/") {
                current += "/" + part
                mkdir(current, 0o700)
            }
        }
        let temporary = path + ".tmp\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CloudError(.internalError, "cannot write \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CloudError(.internalError, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
