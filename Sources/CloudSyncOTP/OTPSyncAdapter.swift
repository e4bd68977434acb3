import CloudSyncCore
import CloudSyncDevice

/// The model adapter of `otp sync`. It syncs the whole local store zone, as `store sync` does
/// (so a pull never skips records of other types), and adds the OTP rules to conflicts: an
/// HOTP counter and the last accepted TOTP step never go back, the higher value wins whatever
/// the merge policy says about the other fields.
public struct OTPSyncAdapter: ModelAdapter {
    /// The local store's zone.
    public var zoneName: String { OTPTokenStore.zoneName }
    /// Send every BYTES field inline (`--force-data`).
    public var forceData: Bool

    /// An adapter; `forceData` sends every BYTES field inline.
    public init(forceData: Bool = false) {
        self.forceData = forceData
    }

    /// Every record type of the zone.
    public func handles(recordType: String) -> Bool { true }
    /// Fields as they are (encryption wraps this adapter).
    public func outgoingFields(_ record: LocalRecord) throws(CloudError) -> [String: FieldValue] { record.fields }
    /// Fields as they are (decryption wraps this adapter).
    public func incomingFields(_ record: Record) throws(CloudError) -> [String: FieldValue] { record.fields }

    /// The secret always travels inline (as encrypted bytes), never as an asset.
    public func forcesData(field: String, recordType: String) -> Bool {
        forceData || (recordType == OTPRecordFields.recordType && field == "secret")
    }

    /// The merge policy for every field, then the maximum of `counter` and `lastStep`.
    public func resolveConflict(recordType: String, local: MergeSide, server: MergeSide, ancestor: [String: FieldValue]?,
                                policy: MergePolicy) -> MergeOutcome? {
        guard recordType == OTPRecordFields.recordType, let localFields = local.fields, let serverFields = server.fields else {
            return nil
        }
        var outcome = RecordMerger.merge(local: local, server: server, ancestor: ancestor, policy: policy)
        guard var merged = outcome.fields else { return outcome }
        var notes: [String] = []
        for field in [OTPRecordFields.counterField, OTPRecordFields.lastStepField] {
            let values = [localFields[field], serverFields[field], ancestor?[field], merged[field]].compactMap { value -> Int64? in
                if case .int64(let n)? = value { return n }
                return nil
            }
            guard let highest = values.max() else { continue }
            if merged[field] != .int64(highest) {
                merged[field] = .int64(highest)
            }
            if localFields[field] != serverFields[field] {
                notes.append("\(field == OTPRecordFields.counterField ? "HOTP counter" : "last TOTP step") \(highest) kept (never goes back)")
            }
        }
        outcome.fields = merged
        outcome.contestedKeys.removeAll { $0 == OTPRecordFields.counterField || $0 == OTPRecordFields.lastStepField }
        if !notes.isEmpty { outcome.resolution += "; " + notes.joined(separator: "; ") }
        return outcome
    }
}
