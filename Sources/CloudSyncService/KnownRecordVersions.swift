import CloudSyncCore

/// Record versions a caller already holds: a sync's own pushed versions, which the change feed
/// of the same sync hands back (issue 16).
public protocol KnownRecordVersions: AnyObject {
    /// Whether the caller holds record `name` of `zone` at change tag `tag`.
    func holds(zone: String, name: String, tag: String) -> Bool
}

/// A hint, for the zone-changes fetches made inside `whileFetching` on this thread: a changed
/// record the caller holds at that change tag may come back hollow (its system fields and tag,
/// no fields, no `encodedFields` text), since the caller drops it unread. The embedded SQLite
/// cloud then skips decoding its fields; any other cloud (HTTP, PostgreSQL) ignores the hint and
/// sends it whole. Carried as a task-local value so that wrappers (`RetryingCloud`,
/// `FaultInjectingCloud`) and `CloudService` stay as they are.
public enum KnownVersionsHint {
    /// The box the task-local value holds. Set by the thread that fetches; the versions it
    /// holds are only read while a fetch runs (a page prefetched on another thread reads them
    /// while the caller reads them too; nothing writes them until that thread is joined).
    public final class Box: @unchecked Sendable {
        let known: any KnownRecordVersions
        init(_ known: any KnownRecordVersions) { self.known = known }
    }

    @TaskLocal static var current: Box?

    /// The versions the current fetch may leave hollow, if any (read by the storages that leave
    /// records hollow: the SQLite one).
    public static var known: (any KnownRecordVersions)? { current?.known }

    /// Runs `body` (a `fetchZoneChanges`) with `known` as the hint. The caller must drop every
    /// changed record `known` holds: those may be hollow.
    public static func whileFetching<T>(_ known: any KnownRecordVersions,
                                        _ body: () throws(CloudError) -> T) throws(CloudError) -> T {
        do {
            return try $current.withValue(Box(known)) { try body() }
        } catch let error as CloudError {
            throw error
        } catch {
            throw CloudError(.internalError, "\(error)")
        }
    }
}
