import CloudSyncCLI
import CloudSyncOTP

/// `otp sync [on|off]`: seed 000's toggle and sync, shared with `store sync` (one account-wide
/// `icloud_sync` flag), with the OTP conflict rules.
enum OTPSync {
    static let spec = CommandSpec(
        name: "sync", abstract: "Sync tokens now, or turn sync on or off for the account.",
        discussion: """
            Sync is off until turned on, and then on for every device of the account (the same \
            flag as 'store sync on'). 'otp sync on' uploads every token recorded while it was off; \
            'otp sync off --delete-cloud-data' also deletes the synced zone from the cloud, while \
            every device keeps its tokens. Secrets, names, issuers, accounts and notes leave the \
            device only encrypted with the account's data key, so syncing needs the sync \
            passphrase (CLOUDSYNC_PASSPHRASE, or asked on a terminal) once per device. When two \
            devices used an HOTP token, the higher counter wins.
            """,
        options: SyncVerb.options,
        arguments: [SyncVerb.stateArgument],
        examples: [Example("cloudsync otp sync on", "Turn sync on and upload the tokens."),
                   Example("cloudsync otp sync off --delete-cloud-data --yes", "Stop syncing and remove the cloud copy.")],
        jsonOutput: OTPJSONOutput.sync,
        run: { context, arguments in
            try OTPCommand.tokens(context).markEncrypted()
            try SyncVerb { OTPSyncAdapter(forceData: $0) }.run(context, arguments)
        })
}
