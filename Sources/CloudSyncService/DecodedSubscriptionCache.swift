import Synchronization

/// The subscriptions a process has decoded from their stored definitions, so that a save does
/// not parse every concerned subscription's JSON again (a wide query subscription is tens of
/// KiB). An entry is used only when the stored text is the one it was decoded from, so a
/// subscription replaced by another process is decoded afresh. Bounded: past `capacity` entries
/// the cache starts over.
final class DecodedSubscriptionCache: Sendable {
    struct Key: Hashable {
        var dbID: Int64
        var owner: String
        var id: String
    }

    struct Entry {
        var definition: String
        var subscription: Subscription
    }

    /// Entries kept at most.
    static let capacity = 20_000

    private let entries = Mutex<[Key: Entry]>([:])

    /// The subscription of `row` in database `dbID`: the cached one when `row` still holds the
    /// text it was decoded from, else `decode(row)` (cached when it succeeds).
    func subscription(_ row: SubscriptionRow, dbID: Int64, decode: (SubscriptionRow) -> Subscription?) -> Subscription? {
        let key = Key(dbID: dbID, owner: row.owner, id: row.id)
        if let entry = entries.withLock({ $0[key] }), entry.definition == row.definition {
            var subscription = entry.subscription
            subscription.creationDate = row.created
            subscription.modificationDate = row.modified
            return subscription
        }
        guard let decoded = decode(row) else { return nil }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(definition: row.definition, subscription: decoded)
        }
        return decoded
    }
}
