import CloudSyncCLI
import CloudSyncSession

/// What the kv commands print with --json (the man page's JSON OUTPUT section).
enum KVJSONOutput {
    static let get = JSONOutput.document("The key and its value.", [("key", "The key."), ("type", "string, number, bool, data or json."), ("value", "The value (data as base64).")])
    static let set = JSONOutput.document("The key as now held here.", [("key", "The key."), ("type", "The value's type."), ("value", "The value."), ("pending", "true until 'kv sync'.")])
    static let delete = JSONOutput.document("The deleted key, in the list 'kv list' prints.", [("keys", "[{key, type (the type it had), deleted: true, pending: true (until 'kv sync')}].")])
    static let list = JSONOutput.document("Every key.", [("keys", "[{key, type, value, pending}]; the reserved cloudsync.* keys only with --all.")])
    static let sync = JSONOutput.document("What came from elsewhere.", [("externalChanges", "[{reason, keys: [{key, type, value, deviceID, modified}]}]: reason ServerChange, InitialSyncChange, QuotaViolationChange or AccountChange.")])
}
