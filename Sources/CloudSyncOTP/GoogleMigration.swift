import CloudSyncCore
import CloudSyncCrypto

/// Google Authenticator's "Transfer accounts" export: `otpauth-migration://offline?data=…`, the
/// data being a base64 protobuf `MigrationPayload` (repeated `OtpParameters` = 1, version = 2,
/// batch_size = 3, batch_index = 4, batch_id = 5). A large export is split into several URIs
/// (batches) sharing a batch_id.
public enum GoogleMigration {
    /// The scheme and host.
    public static let prefix = "otpauth-migration://offline"

    /// One decoded URI.
    public struct Batch: Sendable {
        /// The tokens, or the reason each unusable one was skipped (with its label).
        public var entries: [Result<OTPToken, ImportProblem>]
        /// How many URIs the export has.
        public var batchSize: Int
        /// Which of them this is (from 0).
        public var batchIndex: Int
        /// The export this URI belongs to (shared by its batches; may be negative).
        public var batchID: Int32
    }

    /// True when `text` starts like a migration URI (any case).
    public static func looksLikeURI(_ text: String) -> Bool {
        text.utf8.count >= prefix.utf8.count && text.prefix(prefix.count).lowercased() == prefix
    }

    /// Decodes one migration URI. Throws when the URI or its payload is damaged; an entry that
    /// decodes but cannot be used (MD5, unknown type, short secret) is a failed entry.
    public static func parse(_ uri: String) throws(OTPError) -> Batch {
        let text = uri.trimmingWhitespace()
        guard looksLikeURI(text), let question = text.firstIndex(of: "?") else {
            throw .invalidURI("not an otpauth-migration://offline?data=… URI")
        }
        var data: String?
        for pair in text[text.index(after: question)...].split(separator: "&") where pair.hasPrefix("data=") {
            // Base64's '+' must stay '+': only %-escapes are decoded here.
            data = PercentEncoding.decode(pair.dropFirst(5), plusIsSpace: false)
        }
        guard let data, !data.isEmpty else { throw .invalidURI("the migration URI has no data parameter") }
        guard let payload = Base64.decode(data.replacingSpaces()) else {
            throw .invalidURI("the migration URI's data is not base64")
        }
        return try decodePayload(payload)
    }

    /// The most QR codes one export may span (Google Authenticator puts about ten accounts in
    /// each: ten thousand accounts).
    public static let maxBatchSize = 1000

    static func decodePayload(_ payload: [UInt8]) throws(OTPError) -> Batch {
        var reader = ProtobufReader(payload[...])
        var batch = Batch(entries: [], batchSize: 1, batchIndex: 0, batchID: 0)
        do {
            while let (field, value) = try reader.next() {
                switch (field, value) {
                case (1, .bytes(let message)): batch.entries.append(try decodeParameters(message))
                case (3, .varint(let n)): batch.batchSize = Int(Int32(truncatingIfNeeded: n))
                case (4, .varint(let n)): batch.batchIndex = Int(Int32(truncatingIfNeeded: n))
                case (5, .varint(let n)): batch.batchID = Int32(truncatingIfNeeded: n)
                default: continue
                }
            }
        } catch {
            throw .invalidURI("the migration payload is damaged: \(error.description)")
        }
        // Some exporters write batch_size 0 (or leave it out) for a single batch.
        if batch.batchSize == 0 && batch.batchIndex == 0 { batch.batchSize = 1 }
        // An export lists the batches it misses: a hostile size (up to 2^31) must not become a
        // list of two billion numbers.
        guard batch.batchSize <= maxBatchSize else {
            throw .invalidURI("the migration payload says it is one of \(batch.batchSize) QR codes; at most \(maxBatchSize) are read")
        }
        guard batch.batchSize >= 1, (0..<batch.batchSize).contains(batch.batchIndex) else {
            throw .invalidURI("the migration payload says batch \(batch.batchIndex + 1) of \(batch.batchSize)")
        }
        return batch
    }

    /// One `OtpParameters`: secret = 1, name = 2, issuer = 3, algorithm = 4 (1 SHA1, 2 SHA256,
    /// 3 SHA512, 4 MD5), digits = 5 (1 six, 2 eight), type = 6 (1 HOTP, 2 TOTP), counter = 7.
    static func decodeParameters(_ message: ArraySlice<UInt8>) throws(OTPError) -> Result<OTPToken, ImportProblem> {
        var reader = ProtobufReader(message)
        var secret: [UInt8] = [], name = "", issuer = ""
        var algorithm: UInt64 = 0, digits: UInt64 = 0, type: UInt64 = 0, counter: UInt64 = 0
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (1, .bytes(let b)): secret = Array(b)
            case (2, .bytes(let b)): name = String(decoding: b, as: UTF8.self)
            case (3, .bytes(let b)): issuer = String(decoding: b, as: UTF8.self)
            case (4, .varint(let n)): algorithm = n
            case (5, .varint(let n)): digits = n
            case (6, .varint(let n)): type = n
            case (7, .varint(let n)): counter = n
            default: continue
            }
        }
        // Google writes the label as `issuer:account` or just `account`.
        var account = name
        if let colon = name.firstIndex(of: ":") {
            let prefix = String(name[..<colon]).trimmingWhitespace()
            if issuer.isEmpty || prefix.lowercased() == issuer.lowercased() {
                if issuer.isEmpty { issuer = prefix }
                account = String(name[name.index(after: colon)...]).trimmingWhitespace()
            }
        }
        let label = issuer.isEmpty ? account : issuer + ":" + account
        let hash: HashFunction
        switch algorithm {
        case 0, 1: hash = .sha1
        case 2: hash = .sha256
        case 3: hash = .sha512
        case 4: return .failure(ImportProblem(entry: label, reason: "MD5 tokens are not supported"))
        default: return .failure(ImportProblem(entry: label, reason: "unknown algorithm number \(algorithm)"))
        }
        let digitCount: Int
        switch digits {
        case 0, 1: digitCount = 6
        case 2: digitCount = 8
        default: return .failure(ImportProblem(entry: label, reason: "unknown digit count number \(digits)"))
        }
        let kind: OTPKind
        switch type {
        case 1: kind = .hotp
        case 2: kind = .totp
        default: return .failure(ImportProblem(entry: label, reason: "unknown OTP type number \(type)"))
        }
        guard counter <= UInt64(Int64.max) else { return .failure(ImportProblem(entry: label, reason: "the counter is out of range")) }
        let token = OTPToken(issuer: issuer, account: account, secret: secret, kind: kind, algorithm: hash, digits: digitCount,
                             counter: counter)
        do {
            try token.validate()
        } catch {
            return .failure(ImportProblem(entry: label, reason: error.description))
        }
        return .success(token)
    }

    /// Encodes tokens as migration URIs of at most `perBatch` tokens each. Steam tokens, periods
    /// other than 30 s and 7 digits, which Google's format cannot hold, are left out and returned.
    public static func format(_ tokens: [OTPToken], perBatch: Int = 10, batchID: Int32 = 0) -> (uris: [String], left: [OTPToken]) {
        let fitting = tokens.filter { ($0.kind == .hotp || ($0.kind == .totp && $0.period == 30)) && $0.digits != 7 }
        let left = tokens.filter { token in !fitting.contains { $0 == token } }
        let chunks = stride(from: 0, to: fitting.count, by: max(1, perBatch)).map { Array(fitting[$0..<min($0 + max(1, perBatch), fitting.count)]) }
        let uris = chunks.enumerated().map { index, chunk in
            var payload = ProtobufWriter()
            for token in chunk {
                var p = ProtobufWriter()
                p.field(1, bytes: token.secret)
                let account = token.account.isEmpty && token.issuer.isEmpty ? token.name : token.account
                p.field(2, string: token.issuer.isEmpty ? account : token.issuer + ":" + account)
                p.field(3, string: token.issuer)
                p.field(4, int: token.algorithm == .sha1 ? 1 : token.algorithm == .sha256 ? 2 : 3)
                p.field(5, int: token.digits == 8 ? 2 : 1)
                p.field(6, int: token.kind == .hotp ? 1 : 2)
                if token.kind == .hotp { p.field(7, int: Int64(token.counter)) }
                payload.field(1, bytes: p.bytes)
            }
            payload.field(2, int: 1)
            payload.field(3, int: Int64(chunks.count))
            payload.field(4, int: Int64(index))
            payload.field(5, int: Int64(batchID))
            return prefix + "?data=" + PercentEncoding.encode(Base64.encode(payload.bytes))
        }
        return (uris, left)
    }
}

extension String {
    /// The string with spaces turned back into '+' (a base64 '+' that a form decoder mangled).
    func replacingSpaces() -> String {
        String(map { $0 == " " ? "+" : $0 })
    }
}
