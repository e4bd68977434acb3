import CloudSyncCrypto

/// One 2FA account: what makes its codes, and the labels people find it by.
public struct OTPToken: Sendable, Hashable {
    /// The name the user calls it by (unique on a device); defaults to `issuer:account`.
    public var name: String
    /// The service (`GitHub`), possibly empty.
    public var issuer: String
    /// The user at the service (`alice@example.com`), possibly empty.
    public var account: String
    /// The shared secret (raw bytes; base32 only on the way in and out).
    public var secret: [UInt8]
    /// TOTP, HOTP or Steam.
    public var kind: OTPKind
    /// The HMAC hash (SHA1 for Steam).
    public var algorithm: HashFunction
    /// 6 to 8 (5 for Steam).
    public var digits: Int
    /// Seconds per step of a time-based token.
    public var period: Int
    /// The next HOTP counter to use (RFC 4226's moving factor, as otpauth's `counter` gives it).
    public var counter: UInt64
    /// The last TOTP step `otp verify` accepted (RFC 6238 §5.2: never accept it again).
    public var lastUsedStep: UInt64?
    /// Free text kept with the token (Aegis' note), possibly empty.
    public var note: String

    /// The shortest secret accepted, in bytes: 80 bits, what many services hand out (RFC 4226
    /// asks for 128 and recommends 160).
    public static let minimumSecretBytes = 10
    /// The default TOTP period.
    public static let defaultPeriod = 30
    /// The longest TOTP period accepted, in seconds (a day).
    public static let maximumPeriod = 86_400
    /// The code lengths HOTP and TOTP tokens may have.
    public static let digitRange = 6...8
    /// The highest counter a store holds (`INT64`). A code needs a counter below it, so that the
    /// counter after it can be saved; a token at `maximumCounter` is used up.
    public static let maximumCounter = UInt64(Int64.max)

    /// A token; Steam forces 5 characters and SHA1, HOTP ignores the period and TOTP the counter.
    /// An empty name becomes `issuer:account`.
    public init(name: String = "", issuer: String = "", account: String = "", secret: [UInt8], kind: OTPKind = .totp,
                algorithm: HashFunction = .sha1, digits: Int = 6, period: Int = OTPToken.defaultPeriod, counter: UInt64 = 0,
                lastUsedStep: UInt64? = nil, note: String = "") {
        self.issuer = issuer
        self.account = account
        self.secret = secret
        self.kind = kind
        self.algorithm = kind == .steam ? .sha1 : algorithm
        self.digits = kind == .steam ? 5 : digits
        self.period = kind == .hotp ? OTPToken.defaultPeriod : period
        self.counter = kind == .hotp ? counter : 0
        self.lastUsedStep = lastUsedStep
        self.note = note
        self.name = name
        if self.name.isEmpty { self.name = defaultName }
        normalizeLabels()
    }

    /// A token known by a name only keeps it as its account too, so that formats that have
    /// no name (otpauth labels, Aegis entries) carry it.
    public mutating func normalizeLabels() {
        if issuer.isEmpty && account.isEmpty { account = name }
    }

    /// `issuer:account`, or whichever of the two exists.
    public var label: String {
        switch (issuer.isEmpty, account.isEmpty) {
        case (false, false): issuer + ":" + account
        case (false, true): issuer
        default: account
        }
    }

    /// The name a token gets when none is given: its label.
    public var defaultName: String { label }

    /// Checks the parameters; throws the first problem, in words.
    public func validate() throws(OTPError) {
        if secret.isEmpty { throw .invalidSecret("the secret is empty") }
        if secret.count < OTPToken.minimumSecretBytes {
            throw .invalidSecret("the secret is too short: \(secret.count * 8) bits; at least \(OTPToken.minimumSecretBytes * 8) bits (16 base32 characters) are needed")
        }
        if name.isEmpty { throw .invalidParameter("the token needs a name, an issuer or an account") }
        if name.unicodeScalars.contains(where: { $0.value < 32 || $0.value == 127 }) {
            throw .invalidParameter("the name must not contain control characters")
        }
        try validateParameters()
        // A token at the storable maximum could make no code ("used up"): refused when it is
        // added or imported, not stored to fail later. RFC 4226's counter is 8 bytes unsigned;
        // a store keeps it as INT64, so the top half of the range is refused too.
        if kind == .hotp && counter >= OTPToken.maximumCounter {
            throw .invalidParameter("the HOTP counter must be below \(OTPToken.maximumCounter) (the stored counter is a signed 64-bit integer, and the counter after a code must be storable), got \(counter)")
        }
    }

    /// Checks what the code arithmetic depends on (digits and period), as a stored or synced
    /// token must satisfy before any code is made from it.
    public func validateParameters() throws(OTPError) {
        switch kind {
        case .steam:
            guard digits == 5 else { throw .invalidParameter("Steam codes have 5 characters") }
        case .totp, .hotp:
            guard OTPToken.digitRange.contains(digits) else { throw .invalidParameter("digits must be 6 to 8, got \(digits)") }
        }
        if kind.isTimeBased, !(1...OTPToken.maximumPeriod).contains(period) {
            throw .invalidParameter("the period must be 1 to \(OTPToken.maximumPeriod) seconds, got \(period)")
        }
    }

    /// The HOTP counters `first...first+count-1` a command may use, or an error saying how many
    /// are left: the counter after the last must still be storable.
    public func usableCounters(_ count: Int) throws(OTPError) -> ClosedRange<UInt64> {
        let left = OTPToken.maximumCounter - min(counter, OTPToken.maximumCounter)
        guard left > 0 else { throw .invalidParameter("the HOTP counter of '\(name)' is used up (at \(counter))") }
        guard count >= 1, UInt64(count) <= left else {
            throw .invalidParameter("the HOTP counter of '\(name)' is at \(counter): only \(left) more code\(left == 1 ? "" : "s") can be made")
        }
        return counter...(counter + UInt64(count) - 1)
    }

    /// The code for a moving factor (the HOTP counter, or the TOTP step).
    public func code(factor: UInt64) -> String {
        kind == .steam ? OTPGenerator.steam(secret: secret, counter: factor)
                       : OTPGenerator.hotp(secret: secret, counter: factor, digits: digits, algorithm: algorithm)
    }

    /// The TOTP step at a time, nil before the epoch.
    public func step(atUnixSeconds seconds: Int64) -> UInt64? {
        OTPGenerator.timeStep(unixSeconds: seconds, period: period)
    }

    /// True when both tokens make the same codes (labels and counters aside): a duplicate.
    public func makesSameCodes(as other: OTPToken) -> Bool {
        kind == other.kind && secret == other.secret && algorithm == other.algorithm && digits == other.digits
            && (!kind.isTimeBased || period == other.period)
    }
}
