import CloudSyncCore

/// Plugs a local model into the synchronizer, as SyncKit plugs Core Data or Realm: which zone
/// and record types it syncs, how local fields map to cloud fields and back (the hook for
/// custom record processing, e.g. encrypting a field), and which BYTES fields must travel
/// inline instead of as assets (SyncKit's `forceDataTypeInsteadOfAsset`).
public protocol ModelAdapter: Sendable {
    /// The zone this model syncs in.
    var zoneName: String { get }
    /// Whether this adapter handles records of a type.
    func handles(recordType: String) -> Bool
    /// Cloud fields for a local record about to be pushed.
    func outgoingFields(_ record: LocalRecord) throws(CloudError) -> [String: FieldValue]
    /// Local fields for a record pulled from the cloud (assets already resolved to BYTES).
    func incomingFields(_ record: Record) throws(CloudError) -> [String: FieldValue]
    /// True when a BYTES field must stay inline BYTES however large it is.
    func forcesData(field: String, recordType: String) -> Bool
    /// Custom conflict resolution for a record type (e.g. "a counter never goes back"), in the
    /// local model's terms; nil leaves it to the merge policy. `local`/`server` nil: deleted.
    func resolveConflict(recordType: String, local: MergeSide, server: MergeSide, ancestor: [String: FieldValue]?,
                         policy: MergePolicy) -> MergeOutcome?
}

extension ModelAdapter {
    /// By default the merge policy decides.
    public func resolveConflict(recordType: String, local: MergeSide, server: MergeSide, ancestor: [String: FieldValue]?,
                                policy: MergePolicy) -> MergeOutcome? {
        nil
    }
}

/// The adapter of the generic `cloudsync store`: every record type, fields as they are. Other
/// models that share the zone (OTP tokens) lend their rules: their conflict resolution and
/// inline-data choices apply to their record types here too, so syncing through `store sync`
/// never breaks a model's invariants (an HOTP counter never goes back).
public struct GenericStoreAdapter: ModelAdapter {
    public var zoneName: String
    /// Send every BYTES field inline (`--force-data`).
    public var forceData: Bool
    /// Adapters whose conflict rules and inline-data choices apply to their record types.
    public var rules: [any ModelAdapter]

    public init(zoneName: String = LocalStoreDefaults.zoneName, forceData: Bool = false, rules: [any ModelAdapter] = []) {
        self.zoneName = zoneName
        self.forceData = forceData
        self.rules = rules
    }

    public func handles(recordType: String) -> Bool { true }
    public func outgoingFields(_ record: LocalRecord) throws(CloudError) -> [String: FieldValue] { record.fields }
    public func incomingFields(_ record: Record) throws(CloudError) -> [String: FieldValue] { record.fields }
    public func forcesData(field: String, recordType: String) -> Bool {
        forceData || rules.contains { $0.forcesData(field: field, recordType: recordType) }
    }

    public func resolveConflict(recordType: String, local: MergeSide, server: MergeSide, ancestor: [String: FieldValue]?,
                                policy: MergePolicy) -> MergeOutcome? {
        for rule in rules {
            if let outcome = rule.resolveConflict(recordType: recordType, local: local, server: server, ancestor: ancestor,
                                                  policy: policy) {
                return outcome
            }
        }
        return nil
    }
}
