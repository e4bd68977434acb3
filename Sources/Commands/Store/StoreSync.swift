import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// `store sync`: push pending changes, pull, report conflicts.
enum StoreSync {
    /// The entry; `rules` are the models' rules the sync applies (registered at the composition root).
    static func spec(rules: StoreSyncRules) -> CommandSpec {
        CommandSpec(
            name: "sync", abstract: "Sync with the cloud, or turn sync on or off for the account.",
            discussion: """
                Pushes pending changes in batches (default 400, the most CloudKit takes) with the \
                cached change tags, resolves conflicts by the merge policy, re-creates zones the cloud \
                lost (purged) and uploads their records again, drops here too a zone deleted on \
                purpose elsewhere (unless this device holds unpushed edits of it: then it is \
                re-created and named), retries transient failures with bounded \
                backoff, then pulls with the two-phase fetch. A failed sync leaves the local store as \
                it was and its changes pending. Progress goes to stderr on a terminal.

                Sync is off until turned on: 'store sync on' sets the account-wide key-value flag \
                icloud_sync and uploads everything recorded meanwhile; while it is off no device \
                makes data calls to the cloud (history keeps recording). 'store sync off \
                --delete-cloud-data' also deletes the store's zones from the cloud (asks first on a \
                terminal; --yes otherwise); other devices stop syncing and keep their records.

                --database public syncs this device's public store instead: the record \
                types chosen with 'store config public-types', mirrored from the public database. The \
                public database has no change tokens, so each type is queried on modificationDate \
                since the last sync (less a 60 s overlap; records already held are skipped by change \
                tag), in pages, and a query subscription per type wakes 'subscribe listen'. Records \
                deleted upstream are found by a full scan of each type (every \
                public-scan-interval, default an hour; --full-scan now), which reads every record of \
                the type. Only records this account created can be changed: an edit of another \
                account's record is refused (77) and stays pending, as every change the cloud \
                refuses does. Under a production schema each mirrored type needs the index \
                '___modTime SORTABLE' (range and sort on modificationDate).
                """,
            options: SyncVerb.options + [StoreDatabase.option, StorePublicSync.fullScanOption],
            arguments: [SyncVerb.stateArgument],
            examples: [Example("cloudsync --device phone store sync", "Sync the phone."),
                       Example("cloudsync store sync --json", "The report as JSON."),
                       Example("cloudsync store sync --database public", "Mirror the public types of 'store config public-types'.")],
            jsonOutput: StoreJSONOutput.sync,
            run: { context, arguments in
                if try StoreDatabase.isPublic(context, arguments) { return try StorePublicSync.run(context, arguments) }
                if arguments.flag("full-scan") { throw CLIError.usage("--full-scan goes with --database public") }
                // Other models live in the same zone (OTP tokens): their rules (counters never go back) apply here too.
                try SyncVerb { rules.storeAdapter(forceData: $0) }.run(context, arguments)
            })
    }
}
