import CloudSyncCore

/// What a change token or continuation marker points at. Backends encode their cursors with
/// this codec so that tokens are opaque base64url strings that still carry enough to reject a
/// token from another cloud, another zone or a recreated zone (`changeTokenExpired`).
public struct TokenPayload: Sendable, Hashable {
    /// What the token is a cursor of.
    public enum Kind: UInt8, Sendable {
        case database = 1
        case zone = 2
        case query = 3
    }

    public var kind: Kind
    /// The random identity of the cloud store that issued the token.
    public var epoch: UInt64
    /// The database or zone incarnation the token belongs to.
    public var scopeID: Int64
    /// The sequence number (or query offset) the token stands at.
    public var sequence: Int64

    public init(kind: Kind, epoch: UInt64, scopeID: Int64, sequence: Int64) {
        self.kind = kind
        self.epoch = epoch
        self.scopeID = scopeID
        self.sequence = sequence
    }
}

/// Encodes and decodes `TokenPayload`s as base64url text.
public enum ChangeTokenCodec {
    static let version: UInt8 = 1

    /// The base64url text of a payload: version, kind, epoch, scope and sequence, big-endian.
    public static func encode(_ payload: TokenPayload) -> String {
        var bytes: [UInt8] = [version, payload.kind.rawValue]
        append(payload.epoch, to: &bytes)
        append(UInt64(bitPattern: payload.scopeID), to: &bytes)
        append(UInt64(bitPattern: payload.sequence), to: &bytes)
        return Base64.encode(bytes, url: true, padding: false)
    }

    /// Decodes a token. Text that is not a token of this format is `invalidArguments`.
    public static func decode(_ text: String, expecting kind: TokenPayload.Kind) throws(CloudError) -> TokenPayload {
        let what = kind == .query ? "continuation marker" : "change token"
        guard let bytes = Base64.decode(text), bytes.count == 26, bytes[0] == version else {
            throw CloudError(.invalidArguments, "\(what) \(NameRules.quoted(text)) is malformed")
        }
        guard let decodedKind = TokenPayload.Kind(rawValue: bytes[1]) else {
            throw CloudError(.invalidArguments, "\(what) \(NameRules.quoted(text)) is malformed")
        }
        guard decodedKind == kind else {
            throw CloudError(.changeTokenExpired, "\(what) belongs to a \(decodedKind == .database ? "database" : decodedKind == .zone ? "zone" : "query"), not a \(kind == .database ? "database" : kind == .zone ? "zone" : "query")")
        }
        return TokenPayload(kind: decodedKind, epoch: read(bytes, 2),
                            scopeID: Int64(bitPattern: read(bytes, 10)), sequence: Int64(bitPattern: read(bytes, 18)))
    }

    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func read(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(bytes[offset + i]) }
        return value
    }
}
