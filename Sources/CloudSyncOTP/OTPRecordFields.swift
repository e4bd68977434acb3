import CloudSyncCore
import CloudSyncCrypto

/// How a token is kept as fields of an `OTPToken` record of the local store.
public enum OTPRecordFields {
    /// The record type.
    public static let recordType = "OTPToken"
    /// Fields encrypted before they leave the device: the secret, and the labels and note that
    /// say which services the user has.
    public static let encryptedFields: Set<String> = ["secret", "name", "issuer", "account", "note"]
    /// The HOTP counter: a plain INT64 so that conflicts merge it by maximum.
    public static let counterField = "counter"
    /// The last TOTP step accepted by `otp verify`, merged by maximum as well.
    public static let lastStepField = "lastStep"

    /// The fields of a token.
    public static func fields(_ token: OTPToken) -> [String: FieldValue] {
        var fields: [String: FieldValue] = [
            "name": .string(token.name), "issuer": .string(token.issuer), "account": .string(token.account),
            "secret": .bytes(token.secret), "type": .string(token.kind.rawValue), "algorithm": .string(token.algorithm.rawValue),
            "digits": .int64(Int64(token.digits)), "period": .int64(Int64(token.period)),
            counterField: .int64(Int64(clamping: token.counter)), "note": .string(token.note),
        ]
        if let step = token.lastUsedStep { fields[lastStepField] = .int64(Int64(clamping: step)) }
        return fields
    }

    /// The labels of a record, without decoding the rest (for lookups).
    public static func labels(_ fields: [String: FieldValue]) -> OTPQuery.Labels {
        OTPQuery.Labels(name: string(fields["name"]), issuer: string(fields["issuer"]), account: string(fields["account"]))
    }

    /// The token a record holds.
    public static func token(_ fields: [String: FieldValue]) throws(OTPError) -> OTPToken {
        guard case .bytes(let secret)? = fields["secret"] else {
            if case .encryptedBytes? = fields["secret"] {
                throw .invalidSecret("the token's secret is still encrypted on this device; unlock the data key ('cloudsync keys unlock') and sync again")
            }
            throw .invalidSecret("the token record has no secret")
        }
        guard let kind = OTPKind(rawValue: string(fields["type"])) else {
            throw .invalidParameter("the token record has an unknown type '\(string(fields["type"]))'")
        }
        let algorithm = try HashFunction(otpName: string(fields["algorithm"]).isEmpty ? "SHA1" : string(fields["algorithm"]))
        var lastStep: UInt64?
        if case .int64(let n)? = fields[lastStepField], n >= 0 { lastStep = UInt64(n) }
        var token = OTPToken(name: string(fields["name"]), issuer: string(fields["issuer"]), account: string(fields["account"]),
                             secret: secret, kind: kind, algorithm: algorithm, digits: Int(int(fields["digits"]) ?? 6),
                             period: Int(int(fields["period"]) ?? Int64(OTPToken.defaultPeriod)),
                             counter: UInt64(max(0, int(fields[counterField]) ?? 0)), lastUsedStep: lastStep,
                             note: string(fields["note"]))
        // The stored account as it is: `otp add NAME` stores none, and the initializer would
        // copy the name into it (what formats without names need, not what the user said).
        token.account = string(fields["account"])
        // A record may come from another device or the cloud: no code is made from digits or a
        // period out of range.
        try token.validateParameters()
        return token
    }

    static func string(_ value: FieldValue?) -> String {
        if case .string(let s)? = value { return s }
        return ""
    }

    static func int(_ value: FieldValue?) -> Int64? {
        if case .int64(let n)? = value { return n }
        return nil
    }
}
