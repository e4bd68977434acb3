import CloudSyncCLI
import CloudSyncDevice

/// `cloudsync sync [--watch]`: the device as a whole (the store, the models in its zone such
/// as OTP tokens, and the key-value store with the sync switch), synced once or kept in sync
/// by `SyncEngine`.
public enum SyncCommand {
    /// The command table entry; `rules` are the models' rules the store's sync applies.
    public static func spec(rules: StoreSyncRules) -> CommandSpec {
        CommandSpec(
            name: "sync", abstract: "Sync this device once, or keep it in sync (--watch).",
            discussion: """
                Syncs everything this device holds, the way an app's sync engine does: the \
                key-value store first (it carries the account's sync switch), then, when sync is \
                on, the local store and the tokens of 'otp' (one zone): push, pull, conflicts \
                resolved by the store's merge policy. With sync off it only learns the switch.

                --watch keeps running in the foreground: it pushes shortly after any process of \
                this device commits a change (inotify on the device file, a 200 ms debounce, one \
                push at a time), pulls on start, whenever the cloud announces a change for this \
                device (wake-up files on the embedded cloud, LISTEN/NOTIFY on PostgreSQL, a long \
                poll of a server) and after every reconnection. When the cloud cannot be reached \
                it says 'offline: ...' on stderr, retries after 1 s, doubling up to 60 s with \
                jitter, and says 'online again after N s' when it is back; edits made meanwhile \
                stay pending and go then. When another device turns sync off, the watcher \
                sees it and sends nothing more until it is on again; it stays registered and \
                listening while off, so the switch turned on elsewhere wakes it at once. One watcher per device: a \
                second one exits 75 naming the first one's PID; 'store status' shows the \
                running one. SIGTERM or SIGINT finishes the cycle in flight and exits 0; a \
                credential the cloud refuses exits 77; a server whose answers make no sense is \
                treated as unreachable (offline, retried); any other failure (a local storage \
                error, a full disk) is retried with the same backoff and ends the watcher (its exit status) \
                the fifth time in a row; a device file that cannot be opened ends it at once (69). \
                A zone deleted on purpose on another device is dropped here too, unless this \
                device holds unpushed edits of it (then it is re-created); a purged zone is \
                re-created with the records this device holds.

                CLOUDSYNC_SYNC_BACKOFF=INITIAL,MAX (seconds) shortens the backoff, for tests. \
                With --json each event is one line (NDJSON). The unit \
                contrib/systemd/cloudsync-sync@.service runs a watcher per device under systemd.
                """,
            options: [OptionSpec("watch", help: "Keep running: push after local commits, pull on notifications, wait out outages.")],
            examples: [Example("cloudsync --device laptop sync", "One cycle: key-value store and switch, then push and pull."),
                       Example("cloudsync --device laptop sync --watch", "Keep the laptop in sync until Ctrl-C."),
                       Example("cloudsync --device laptop sync --watch --json", "The same, one JSON event per line.")],
            jsonOutput: SyncJSONOutput.events,
            run: { context, arguments in
                if arguments.flag("watch") {
                    try SyncWatch(context: context, rules: rules).run()
                } else {
                    try SyncWatch(context: context, rules: rules).runOnce()
                }
            })
    }
}
