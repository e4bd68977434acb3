import CloudSyncCLI

/// What `sync` prints with --json (the man page's JSON OUTPUT section).
enum SyncJSONOutput {
    static let events = JSONOutput.lines("""
        One line per event: pushed, pulled, conflict, offline, online, toggle, zoneRecreated, zoneDropped, \
        failed, and cycle at the end of every cycle.
        """, [
        ("event", "pushed, pulled, conflict, offline, online, toggle, zoneRecreated, zoneDropped, failed or cycle."),
        ("time", "When it happened (ms since the epoch)."),
        ("?saved", "pushed: records saved."), ("?deleted", "pushed, pulled: records deleted."),
        ("?failed", "pushed: records the cloud refused (they stay pending)."),
        ("?changed", "pulled: records changed."),
        ("?ms", "pushed, pulled, cycle: how long the cycle took (ms)."),
        ("?zoneName", "conflict, zoneRecreated, zoneDropped: the zone."), ("?recordName", "conflict: the record."),
        ("?resolution", "conflict: how the merge policy resolved it."),
        ("?reason", "offline, failed: why."), ("?serverErrorCode", "failed: the error's code."),
        ("?retryIn", "offline, failed: seconds until the next try."),
        ("?offlineSeconds", "online: how long the cloud was away."),
        ("?syncOn", "toggle, cycle: whether the account's sync switch is on."),
        ("?pending", "cycle: changes still pending."),
    ])
}
