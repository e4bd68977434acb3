/// Why an OTP operation failed. Every case carries one human sentence.
public enum OTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A secret is not usable: not base32, too short, empty.
    case invalidSecret(String)
    /// An `otpauth://` URI is malformed or inconsistent.
    case invalidURI(String)
    /// A token parameter is out of range (digits, period, algorithm, counter, type).
    case invalidParameter(String)
    /// An import file is damaged or in no format this tool reads.
    case invalidFile(String)
    /// An encrypted import file did not open: wrong password, or altered.
    case decryptionFailed(String)

    /// The human sentence.
    public var description: String {
        switch self {
        case .invalidSecret(let why), .invalidURI(let why), .invalidParameter(let why), .invalidFile(let why),
             .decryptionFailed(let why):
            why
        }
    }
}
