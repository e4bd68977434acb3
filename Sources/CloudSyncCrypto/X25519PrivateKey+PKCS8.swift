/// PKCS#8 (RFC 5958 OneAsymmetricKey) for X25519 keys, as RFC 8410 lays it out:
/// `SEQUENCE { INTEGER 0, SEQUENCE { OID 1.3.101.110 }, OCTET STRING { OCTET STRING (32 bytes) } }`,
/// the form `openssl genpkey -algorithm X25519` and Python's `cryptography` write and read.
extension X25519PrivateKey {
    /// The DER of OID 1.3.101.110 (id-X25519) with its tag and length.
    static let x25519OID: [UInt8] = [0x06, 0x03, 0x2b, 0x65, 0x6e]

    /// The key as PKCS#8 DER (48 bytes, version 0, no attributes, no public key).
    public var pkcs8DER: [UInt8] {
        let algorithm: [UInt8] = [0x30, UInt8(X25519PrivateKey.x25519OID.count)] + X25519PrivateKey.x25519OID
        let curvePrivateKey: [UInt8] = [0x04, 0x20] + rawRepresentation
        let privateKey: [UInt8] = [0x04, UInt8(curvePrivateKey.count)] + curvePrivateKey
        let body: [UInt8] = [0x02, 0x01, 0x00] + algorithm + privateKey
        return [0x30, UInt8(body.count)] + body
    }

    /// The key as a PEM `PRIVATE KEY` block (base64 in 64-character lines), for backups and
    /// other tools (`openssl pkey`, Python's `cryptography`).
    public var pkcs8PEM: String { PEM.encode(pkcs8DER, label: "PRIVATE KEY") }

    /// Reads an X25519 key from a PEM `PRIVATE KEY` block.
    public init(pkcs8PEM text: String) throws(CryptoError) {
        try self.init(pkcs8DER: PEM.decode(text, label: "PRIVATE KEY"))
    }

    /// Reads an X25519 key from PKCS#8 DER (version 0 or 1; attributes are skipped; a public
    /// key, when present, must be the one the private key gives).
    public init(pkcs8DER der: [UInt8]) throws(CryptoError) {
        var outer = DERReader(der)
        var info = try outer.read(tag: 0x30, "PrivateKeyInfo")
        guard outer.atEnd else { throw .invalidKey("bytes after the PKCS#8 structure") }
        let version = try info.read(tag: 0x02, "version").remaining
        guard version == [0x00] || version == [0x01] else { throw .invalidKey("unknown PKCS#8 version") }
        let algorithm = try info.read(tag: 0x30, "algorithm").remaining
        guard algorithm == X25519PrivateKey.x25519OID else {
            throw .invalidKey("not an X25519 key (the algorithm is not 1.3.101.110)")
        }
        var wrapped = try info.read(tag: 0x04, "privateKey")
        let raw = try wrapped.read(tag: 0x04, "CurvePrivateKey").remaining
        guard wrapped.atEnd, raw.count == X25519PrivateKey.size else { throw .invalidKey("the X25519 private key is not 32 bytes") }
        var publicKey: [UInt8]?
        if info.peek == 0xa0 { _ = try info.read(tag: 0xa0, "attributes") }
        if info.peek == 0x81 { publicKey = try info.read(tag: 0x81, "publicKey").remaining }
        guard info.atEnd else { throw .invalidKey("unexpected fields in the PKCS#8 structure") }
        try self.init(rawRepresentation: raw)
        if let publicKey, publicKey != [0x00] + self.publicKey.rawRepresentation {
            throw .invalidKey("the PKCS#8 public key does not match its private key")
        }
    }
}

/// Reads DER tag-length-value items in order (definite lengths up to 4 length bytes).
struct DERReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { offset == bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[offset] }
    var remaining: [UInt8] { Array(bytes[offset...]) }

    /// The next item, which must have `tag`; its contents, as a reader.
    mutating func read(tag: UInt8, _ what: String) throws(CryptoError) -> DERReader {
        guard offset + 2 <= bytes.count, bytes[offset] == tag else { throw .invalidKey("malformed PKCS#8 DER (\(what))") }
        var length = Int(bytes[offset + 1])
        var start = offset + 2
        if length & 0x80 != 0 {
            let count = length & 0x7f
            guard count >= 1, count <= 4, start + count <= bytes.count else { throw .invalidKey("malformed PKCS#8 DER (\(what) length)") }
            length = bytes[start..<(start + count)].reduce(0) { $0 << 8 | Int($1) }
            start += count
        }
        guard length <= bytes.count - start else { throw .invalidKey("truncated PKCS#8 DER (\(what))") }
        offset = start + length
        return DERReader(Array(bytes[start..<offset]))
    }
}
