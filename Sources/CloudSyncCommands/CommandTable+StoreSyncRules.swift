import CloudSyncDevice
import CloudSyncOTP

extension CommandTable {
    /// The models that keep their records in the local store's zone, registered for `store sync`:
    /// OTP tokens (an HOTP counter and the last TOTP step never go back, the secret travels
    /// inline). The store's command module knows none of them.
    public static func storeSyncRules() -> StoreSyncRules {
        var rules = StoreSyncRules()
        rules.register { OTPSyncAdapter(forceData: $0) }
        return rules
    }
}
