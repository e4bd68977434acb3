/// ECDSA over P-256 with SHA-256 (verification only), through libcrypto: the signatures of
/// server-to-server keys.
public enum ECDSAP256 {
    /// `EVP_PKEY_EC`.
    static let ecKeyType: Int32 = 408

    /// The DER SubjectPublicKeyInfo of a PEM `PUBLIC KEY`, checked to be a P-256 key.
    public static func publicKeyDER(pem: String) throws(CryptoError) -> [UInt8] {
        let der = try PEM.decode(pem, label: "PUBLIC KEY")
        let library = try LibCrypto.Signatures.shared()
        let key = try decode(der, library)
        library.pkeyFree(key)
        return der
    }

    /// True when `signature` (DER) is a valid ECDSA-SHA256 signature of `message` by the key.
    public static func verify(publicKeyDER der: [UInt8], message: [UInt8], signature: [UInt8]) throws(CryptoError) -> Bool {
        let library = try LibCrypto.Signatures.shared()
        let key = try decode(der, library)
        defer { library.pkeyFree(key) }
        guard let context = library.contextNew() else { throw .library("EVP_MD_CTX_new failed") }
        defer { library.contextFree(context) }
        guard library.verifyInit(context, nil, library.sha256(), nil, key) == 1 else {
            throw .library("EVP_DigestVerifyInit failed")
        }
        let result = signature.withUnsafeBufferPointer { sig in
            message.withUnsafeBufferPointer { tbs in
                library.verify(context, sig.baseAddress, sig.count, tbs.baseAddress, tbs.count)
            }
        }
        return result == 1
    }

    private static func decode(_ der: [UInt8], _ library: LibCrypto.Signatures) throws(CryptoError) -> OpaquePointer {
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return library.decodePublicKey(nil, &cursor, buffer.count)
        }
        guard let key else { throw .invalidKey("not a DER public key") }
        guard library.pkeyBaseID(key) == ecKeyType, library.pkeyBits(key) == 256 else {
            library.pkeyFree(key)
            throw .invalidKey("not an ECDSA P-256 public key")
        }
        return key
    }
}
