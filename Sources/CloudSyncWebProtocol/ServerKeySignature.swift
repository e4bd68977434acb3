import CloudSyncCore
import CloudSyncCrypto

/// Apple's server-to-server request signatures: headers `X-Apple-CloudKit-Request-KeyID`,
/// `-ISO8601Date` and `-SignatureV1`, the last the base64 DER ECDSA-SHA256 signature, by the
/// registered key, of `date:base64(sha256(body)):path`. A request without a body (a signed GET)
/// is accepted in both forms clients send: Apple's, with the hash of the empty body, and
/// `date::path` (an empty hash, as MistKit-style clients sign it); both still bind date and path.
public enum ServerKeySignature {
    public static let keyIDHeader = "X-Apple-CloudKit-Request-KeyID"
    public static let dateHeader = "X-Apple-CloudKit-Request-ISO8601Date"
    public static let signatureHeader = "X-Apple-CloudKit-Request-SignatureV1"
    /// The largest difference between the request's date and the server's clock.
    public static let maxSkewMilliseconds: Int64 = 5 * 60 * 1000

    /// The text a request's signature covers.
    public static func signedText(date: String, body: [UInt8], path: String) -> String {
        date + ":" + Base64.encode(SHA256.digest(body)) + ":" + path
    }

    /// The key ID of a PEM public key: the SHA-256 (hex) of its DER. Throws when it is not a
    /// P-256 public key.
    public static func keyID(publicKeyPEM pem: String) throws(CryptoError) -> String {
        Hex.encode(SHA256.digest(try ECDSAP256.publicKeyDER(pem: pem)))
    }

    /// True when the signature is the key's over this request and the date is within the skew.
    public static func verify(publicKeyPEM pem: String, date: String, body: [UInt8], path: String, signature: String,
                              now: Int64) -> Bool {
        guard let time = ISO8601.milliseconds(from: date), abs(time - now) <= maxSkewMilliseconds,
              let signatureBytes = Base64.decode(signature), !signatureBytes.isEmpty,
              let der = try? ECDSAP256.publicKeyDER(pem: pem) else { return false }
        var messages = [signedText(date: date, body: body, path: path)]
        if body.isEmpty { messages.append(date + "::" + path) }
        return messages.contains { text in
            (try? ECDSAP256.verify(publicKeyDER: der, message: Array(text.utf8), signature: signatureBytes)) == true
        }
    }
}
