import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// OpenSSL's libcrypto, loaded with `dlopen` on first use instead of at process start.
///
/// Linked normally, libcrypto costs every cloudsync process about 1 ms before `main` (its
/// relocations and constructors), although most commands never encrypt anything. Here the
/// library is opened, and every function cloudsync calls is looked up, once, the first time
/// `LibCrypto.shared()` is asked for it (thread-safe: a Swift global's initialiser runs once).
/// The `COpenSSL` module supplies only types and constants; nothing references a libcrypto
/// symbol directly, so the executable does not depend on the library.
public struct LibCrypto: @unchecked Sendable {
    /// The file name loaded (OpenSSL 3's soname).
    public static let soname = "libcrypto.so.3"

    typealias CipherContextNew = @convention(c) () -> OpaquePointer?
    typealias CipherContextFree = @convention(c) (OpaquePointer?) -> Void
    typealias CipherFetch = @convention(c) () -> OpaquePointer?
    typealias CipherInit = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?,
                                           UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) -> Int32
    typealias CipherControl = @convention(c) (OpaquePointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias CipherUpdate = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?,
                                             UnsafePointer<UInt8>?, Int32) -> Int32
    typealias CipherFinal = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias DigestFetch = @convention(c) () -> OpaquePointer?
    typealias Digest = @convention(c) (UnsafeRawPointer?, Int, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?,
                                       OpaquePointer?, OpaquePointer?) -> Int32
    typealias QuickMAC = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
                                         UnsafePointer<OSSL_PARAM>?, UnsafeRawPointer?, Int, UnsafePointer<UInt8>?, Int,
                                         UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> UnsafeMutablePointer<UInt8>?
    typealias PBEScrypt = @convention(c) (UnsafePointer<CChar>?, Int, UnsafePointer<UInt8>?, Int, UInt64, UInt64, UInt64,
                                          UInt64, UnsafeMutablePointer<UInt8>?, Int) -> Int32
    typealias PKeyNewRaw = @convention(c) (Int32, OpaquePointer?, UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    typealias PKeyGetRaw = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32
    typealias PKeyFree = @convention(c) (OpaquePointer?) -> Void
    typealias PKeyContextNew = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    typealias PKeyContextFree = @convention(c) (OpaquePointer?) -> Void
    typealias PKeyDeriveInit = @convention(c) (OpaquePointer?) -> Int32
    typealias PKeyDeriveSetPeer = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias PKeyDerive = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?) -> Int32

    /// `EVP_CIPHER_CTX_new`.
    let cipherContextNew: CipherContextNew
    /// `EVP_CIPHER_CTX_free`.
    let cipherContextFree: CipherContextFree
    /// `EVP_CIPHER_CTX_ctrl`.
    let cipherControl: CipherControl
    /// `EVP_aes_256_gcm`.
    let aes256GCM: CipherFetch
    /// `EVP_EncryptInit_ex`, `EVP_EncryptUpdate`, `EVP_EncryptFinal_ex`.
    let encryptInit: CipherInit
    let encryptUpdate: CipherUpdate
    let encryptFinal: CipherFinal
    /// `EVP_DecryptInit_ex`, `EVP_DecryptUpdate`, `EVP_DecryptFinal_ex`.
    let decryptInit: CipherInit
    let decryptUpdate: CipherUpdate
    let decryptFinal: CipherFinal
    /// `EVP_sha256`.
    let sha256: DigestFetch
    /// `EVP_Digest`.
    let digest: Digest
    /// `EVP_Q_mac`.
    let quickMAC: QuickMAC
    /// `EVP_PBE_scrypt`.
    let pbeScrypt: PBEScrypt
    /// `EVP_chacha20_poly1305`.
    let chacha20Poly1305: CipherFetch
    /// `EVP_PKEY_new_raw_private_key`, `EVP_PKEY_new_raw_public_key` (X25519 keys from 32 bytes).
    let pkeyNewRawPrivate: PKeyNewRaw
    let pkeyNewRawPublic: PKeyNewRaw
    /// `EVP_PKEY_get_raw_public_key`.
    let pkeyGetRawPublic: PKeyGetRaw
    /// `EVP_PKEY_free`.
    let pkeyFree: PKeyFree
    /// `EVP_PKEY_CTX_new`, `EVP_PKEY_CTX_free`.
    let pkeyContextNew: PKeyContextNew
    let pkeyContextFree: PKeyContextFree
    /// `EVP_PKEY_derive_init`, `EVP_PKEY_derive_set_peer`, `EVP_PKEY_derive` (X25519 Diffie-Hellman).
    let pkeyDeriveInit: PKeyDeriveInit
    let pkeyDeriveSetPeer: PKeyDeriveSetPeer
    let pkeyDerive: PKeyDerive

    /// The library, loaded and resolved on the first call; the same error on every call when it
    /// cannot be loaded.
    public static func shared() throws(CryptoError) -> LibCrypto {
        try loaded.get()
    }

    /// True when libcrypto has been loaded in this process (for tests of the lazy loading).
    public static var isLoaded: Bool {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    /// The one load of the process (a global's initialiser: run once, thread-safe).
    private static let loaded: Result<LibCrypto, CryptoError> = Result { () throws(CryptoError) in try LibCrypto() }

    private init() throws(CryptoError) {
        var symbols = try LibCryptoSymbols()
        let cipherContextNew = symbols.resolve("EVP_CIPHER_CTX_new", as: CipherContextNew.self)
        let cipherContextFree = symbols.resolve("EVP_CIPHER_CTX_free", as: CipherContextFree.self)
        let cipherControl = symbols.resolve("EVP_CIPHER_CTX_ctrl", as: CipherControl.self)
        let aes256GCM = symbols.resolve("EVP_aes_256_gcm", as: CipherFetch.self)
        let encryptInit = symbols.resolve("EVP_EncryptInit_ex", as: CipherInit.self)
        let encryptUpdate = symbols.resolve("EVP_EncryptUpdate", as: CipherUpdate.self)
        let encryptFinal = symbols.resolve("EVP_EncryptFinal_ex", as: CipherFinal.self)
        let decryptInit = symbols.resolve("EVP_DecryptInit_ex", as: CipherInit.self)
        let decryptUpdate = symbols.resolve("EVP_DecryptUpdate", as: CipherUpdate.self)
        let decryptFinal = symbols.resolve("EVP_DecryptFinal_ex", as: CipherFinal.self)
        let sha256 = symbols.resolve("EVP_sha256", as: DigestFetch.self)
        let digest = symbols.resolve("EVP_Digest", as: Digest.self)
        let quickMAC = symbols.resolve("EVP_Q_mac", as: QuickMAC.self)
        let pbeScrypt = symbols.resolve("EVP_PBE_scrypt", as: PBEScrypt.self)
        let chacha20Poly1305 = symbols.resolve("EVP_chacha20_poly1305", as: CipherFetch.self)
        let pkeyNewRawPrivate = symbols.resolve("EVP_PKEY_new_raw_private_key", as: PKeyNewRaw.self)
        let pkeyNewRawPublic = symbols.resolve("EVP_PKEY_new_raw_public_key", as: PKeyNewRaw.self)
        let pkeyGetRawPublic = symbols.resolve("EVP_PKEY_get_raw_public_key", as: PKeyGetRaw.self)
        let pkeyFree = symbols.resolve("EVP_PKEY_free", as: PKeyFree.self)
        let pkeyContextNew = symbols.resolve("EVP_PKEY_CTX_new", as: PKeyContextNew.self)
        let pkeyContextFree = symbols.resolve("EVP_PKEY_CTX_free", as: PKeyContextFree.self)
        let pkeyDeriveInit = symbols.resolve("EVP_PKEY_derive_init", as: PKeyDeriveInit.self)
        let pkeyDeriveSetPeer = symbols.resolve("EVP_PKEY_derive_set_peer", as: PKeyDeriveSetPeer.self)
        let pkeyDerive = symbols.resolve("EVP_PKEY_derive", as: PKeyDerive.self)
        guard let cipherContextNew, let cipherContextFree, let cipherControl, let aes256GCM, let encryptInit, let encryptUpdate,
              let encryptFinal, let decryptInit, let decryptUpdate, let decryptFinal, let sha256, let digest, let quickMAC,
              let pbeScrypt, let chacha20Poly1305, let pkeyNewRawPrivate, let pkeyNewRawPublic, let pkeyGetRawPublic,
              let pkeyFree, let pkeyContextNew, let pkeyContextFree, let pkeyDeriveInit, let pkeyDeriveSetPeer,
              let pkeyDerive else {
            throw symbols.unavailable()
        }
        self.cipherContextNew = cipherContextNew
        self.cipherContextFree = cipherContextFree
        self.cipherControl = cipherControl
        self.aes256GCM = aes256GCM
        self.encryptInit = encryptInit
        self.encryptUpdate = encryptUpdate
        self.encryptFinal = encryptFinal
        self.decryptInit = decryptInit
        self.decryptUpdate = decryptUpdate
        self.decryptFinal = decryptFinal
        self.sha256 = sha256
        self.digest = digest
        self.quickMAC = quickMAC
        self.pbeScrypt = pbeScrypt
        self.chacha20Poly1305 = chacha20Poly1305
        self.pkeyNewRawPrivate = pkeyNewRawPrivate
        self.pkeyNewRawPublic = pkeyNewRawPublic
        self.pkeyGetRawPublic = pkeyGetRawPublic
        self.pkeyFree = pkeyFree
        self.pkeyContextNew = pkeyContextNew
        self.pkeyContextFree = pkeyContextFree
        self.pkeyDeriveInit = pkeyDeriveInit
        self.pkeyDeriveSetPeer = pkeyDeriveSetPeer
        self.pkeyDerive = pkeyDerive
    }

    /// `dlerror()`'s message, or a generic one.
    static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
    }
}
