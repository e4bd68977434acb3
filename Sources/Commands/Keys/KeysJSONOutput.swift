import CloudSyncCLI
import CloudSyncSession

/// What the keys commands print with --json (the man page's JSON OUTPUT section).
enum KeysJSONOutput {
    static let unlock = JSONOutput.nothing()
    static let lock = JSONOutput.nothing()
    static let status = JSONOutput.document("The data key's state.", [("unlocked", "Whether this device holds it."), ("accountHasKey", "Whether the account has one."), ("encryptedFields", "{recordType: [field]}: the fields sealed before upload.")])
    static let change = JSONOutput.nothing()
    static let identity = JSONOutput.document("This account's identity key.", [("fingerprint", "SHA-256 of the public key, 64 hex digits."), ("publicKey", "The X25519 public key, base64."), ("userRecordName", "The account's user record name."), ("account", "The account."), ("createdAt", "Milliseconds since the epoch."), ("created", "Whether this run created it.")])
    static let show = JSONOutput.document("Another account's published key.", [("account", "The account."), ("userRecordName", "Its user record name."), ("fingerprint", "The key's fingerprint."), ("publicKey", "Base64."), ("createdAt", "Milliseconds since the epoch."), ("trust", "trusted, unpinned or changed."), ("pinnedFingerprint", "The fingerprint pinned here, or null."), ("displayName", "The account's display name (whoami --set-name), or null.")])
    static let trust = JSONOutput.document("The pin.", [("account", "The account."), ("fingerprint", "The pinned fingerprint."), ("trust", "trusted.")])
    static let rotate = JSONOutput.document("The new key.", [("fingerprint", "The new key's fingerprint."), ("publicKey", "Base64."), ("previousFingerprint", "The key it replaces, or null.")])
    static let exportIdentity = JSONOutput.document("Where the PEM went.", [("path", "The file written (mode 0600)."), ("fingerprint", "The current key's fingerprint."), ("keys", "How many keys the file holds (1, or every key with --all).")])
}
