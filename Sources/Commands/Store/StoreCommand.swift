import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice

/// `cloudsync store`: the device's local store (the app's own data), its persistent history,
/// and the synchronizer that keeps it in step with the cloud.
public enum StoreCommand {
    static let zoneOption = OptionSpec("zone", value: "ZONE", help: "Zone (default \(LocalStoreDefaults.zoneName)).",
                                       completion: .zoneName)

    /// The command table entry.
    public static let spec = CommandSpec(
        name: "store",
        abstract: "Work with this device's local store and sync it with the cloud.",
        discussion: """
            The local store is this device's own data. put, get, delete and query work offline and \
            never touch the cloud; every change is recorded in persistent history and waits as \
            pending until 'store sync' pushes it (in batches of up to 400, with the cached change \
            tags) and pulls what other devices changed. Conflicts are resolved by the merge policy \
            (store config merge-policy): fields (default; three-way merge per field, the newer \
            change wins a field changed on both sides), server, client or newest. Every conflict \
            is reported and kept in the conflict log.
            """,
        examples: [
            Example("cloudsync store put Note n1 --field title=Hello", "Add a record locally."),
            Example("cloudsync store sync", "Push pending changes, then pull."),
            Example("cloudsync store config merge-policy server", "Let the cloud win conflicts."),
        ],
        subcommands: [StorePut.spec, StoreRead.get, StorePut.delete, StoreRead.query, StoreHistory.spec,
                      StoreStatus.spec, StoreSync.spec, StoreConfig.spec, StoreStatus.conflicts,
                      StoreTransfer.export, StoreTransfer.import, StoreRevert.spec])

    /// The container the store of this invocation works in.
    static func container(_ context: CommandContext) -> String { context.settings.container }

    /// Milliseconds since the epoch.
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// A local record as a Web Services record dictionary (as `record get --json` prints one),
    /// with `pending` added: the one shape of `store get`, `store query` and `store export`.
    static func json(_ record: LocalRecord, pending: Bool) -> JSONValue {
        guard case .object(var pairs) = RecordJSON.encode(asRecord(record)) else { return .null }
        pairs.append(("pending", .bool(pending)))
        return .object(pairs)
    }

    /// The record as the shared formatter shows it (in the current user's zone).
    static func asRecord(_ record: LocalRecord) -> Record {
        Record(recordID: RecordID(recordName: record.recordName,
                                  zoneID: ZoneID(zoneName: record.zoneName, ownerRecordName: ZoneID.currentUserOwner)),
               recordType: record.recordType, fields: record.fields)
    }
}

#if canImport(Glibc)
import Glibc
#endif
