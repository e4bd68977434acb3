import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

extension LibCrypto {
    /// libcrypto's signature verification functions, resolved the first time a signature is
    /// checked (`cloudsync serve`'s server-to-server keys), not with the rest of `LibCrypto`.
    struct Signatures: @unchecked Sendable {
        typealias DecodePublicKey = @convention(c) (UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
                                                    Int) -> OpaquePointer?
        typealias PKeyInt = @convention(c) (OpaquePointer?) -> Int32
        typealias PKeyFree = @convention(c) (OpaquePointer?) -> Void
        typealias ContextNew = @convention(c) () -> OpaquePointer?
        typealias ContextFree = @convention(c) (OpaquePointer?) -> Void
        typealias DigestFetch = @convention(c) () -> OpaquePointer?
        typealias VerifyInit = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, OpaquePointer?,
                                               OpaquePointer?) -> Int32
        typealias Verify = @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int) -> Int32

        /// `d2i_PUBKEY` (a SubjectPublicKeyInfo).
        let decodePublicKey: DecodePublicKey
        /// `EVP_PKEY_get_base_id`, `EVP_PKEY_get_bits`, `EVP_PKEY_free`.
        let pkeyBaseID: PKeyInt
        let pkeyBits: PKeyInt
        let pkeyFree: PKeyFree
        /// `EVP_MD_CTX_new`, `EVP_MD_CTX_free`, `EVP_sha256`.
        let contextNew: ContextNew
        let contextFree: ContextFree
        let sha256: DigestFetch
        /// `EVP_DigestVerifyInit`, `EVP_DigestVerify`.
        let verifyInit: VerifyInit
        let verify: Verify

        /// The one load of the process.
        private static let loaded: Result<Signatures, CryptoError> = Result { () throws(CryptoError) in try Signatures() }

        /// The resolved functions, or why libcrypto cannot give them.
        static func shared() throws(CryptoError) -> Signatures { try loaded.get() }

        private init() throws(CryptoError) {
            var symbols = try LibCryptoSymbols()
            let decodePublicKey = symbols.resolve("d2i_PUBKEY", as: DecodePublicKey.self)
            let pkeyBaseID = symbols.resolve("EVP_PKEY_get_base_id", as: PKeyInt.self)
            let pkeyBits = symbols.resolve("EVP_PKEY_get_bits", as: PKeyInt.self)
            let pkeyFree = symbols.resolve("EVP_PKEY_free", as: PKeyFree.self)
            let contextNew = symbols.resolve("EVP_MD_CTX_new", as: ContextNew.self)
            let contextFree = symbols.resolve("EVP_MD_CTX_free", as: ContextFree.self)
            let sha256 = symbols.resolve("EVP_sha256", as: DigestFetch.self)
            let verifyInit = symbols.resolve("EVP_DigestVerifyInit", as: VerifyInit.self)
            let verify = symbols.resolve("EVP_DigestVerify", as: Verify.self)
            guard let decodePublicKey, let pkeyBaseID, let pkeyBits, let pkeyFree, let contextNew, let contextFree, let sha256,
                  let verifyInit, let verify else {
                throw symbols.unavailable()
            }
            self.decodePublicKey = decodePublicKey
            self.pkeyBaseID = pkeyBaseID
            self.pkeyBits = pkeyBits
            self.pkeyFree = pkeyFree
            self.contextNew = contextNew
            self.contextFree = contextFree
            self.sha256 = sha256
            self.verifyInit = verifyInit
            self.verify = verify
        }
    }
}
