import CloudSyncCore

/// The service's rules for what may be stored, independent of how a backend stores it: names,
/// reserved fields, numbers, the record size limit and predicates. Every backend checks a save
/// and a subscription with these (the SQLite cloud now; PostgreSQL and the HTTP server later),
/// and the device checks a local write with the same rules, so a change that the cloud would
/// refuse is refused when it is written (exit 65) instead of staying pending forever.
public enum ServiceRules {
    /// Field names the cloud keeps for system values: a predicate or sort on them reads the
    /// record's name or stamps (see ``CloudSyncCore/PredicateKeys``), so a field of that name
    /// could never be queried.
    public static let systemFieldNames: Set<String> = PredicateKeys.all

    /// Field names that start with this prefix belong to the sync engine, not to the app (as
    /// `NSPersistentCloudKitContainer`'s `CD_` fields): a device adds them on push and strips
    /// them on pull, so an app that wrote one itself would disagree with every other device.
    public static let syncFieldPrefix = "CD_"

    /// The sync engine's edit-time field (TIMESTAMP, ms): when a device last edited the record.
    public static let editTimeField = "CD_editedAt"

    /// The sync fields the cloud knows, with the type each must have: a record saved with one
    /// of another type would break every device's merges.
    public static let syncFieldTypes: [String: FieldTypeName] = [editTimeField: FieldTypeName(.timestamp)]

    // MARK: Records the cloud saves

    /// Checks a record a client saves, before anything is stored: its name and type, every
    /// field name (no system name; a known sync field only with its type) and that every number
    /// is finite. The size is checked by ``validateSize(_:)`` on the record as it will be stored.
    public static func validateSave(_ record: Record) throws(CloudError) {
        try NameRules.validateRecordName(record.recordID.recordName)
        try NameRules.validateIdentifier(record.recordType, kind: "record type")
        for (name, value) in record.fields {
            try validateCloudFieldName(name)
            if let required = syncFieldTypes[name], value.typeName != required {
                throw CloudError(.invalidArguments,
                                 "field '\(name)' is reserved for the sync engine and must be \(required), got \(value.typeName)")
            }
            guard value.isFinite else {
                throw CloudError(.invalidArguments, "field '\(name)' holds an infinite or NaN number, which a record cannot store")
            }
        }
    }

    /// A field name the cloud stores: an identifier that is not a system name.
    public static func validateCloudFieldName(_ name: String) throws(CloudError) {
        try NameRules.validateIdentifier(name, kind: "field name")
        if systemFieldNames.contains(name) {
            throw CloudError(.invalidArguments,
                             "field name '\(name)' is reserved for the record's system value; choose another name")
        }
    }

    /// A field name an app writes (the local store's `put`): a cloud field name that is not
    /// one of the sync engine's (`CD_…`).
    public static func validateAppFieldName(_ name: String) throws(CloudError) {
        try validateCloudFieldName(name)
        if name.hasPrefix(syncFieldPrefix) {
            throw CloudError(.invalidArguments,
                             "field name '\(name)' is reserved: names starting with \(syncFieldPrefix) belong to the sync engine")
        }
    }

    /// Checks a record's size as stored (``CloudSyncCore/Record/estimatedSize``) against
    /// ``CloudLimits/maxRecordSize``: `limitExceeded`.
    public static func validateSize(_ record: Record) throws(CloudError) {
        try validateSize(record.estimatedSize, recordName: record.recordID.recordName)
    }

    /// Checks a record size computed by the caller (a device estimating what it will push);
    /// `advice` ends the message.
    public static func validateSize(_ size: Int, recordName: String,
                                    advice: String = "store large data as an asset") throws(CloudError) {
        guard size <= CloudLimits.maxRecordSize else {
            throw CloudError(.limitExceeded,
                             "record '\(recordName)' is \(size) bytes in the cloud; the limit is \(CloudLimits.maxRecordSize) (1 MB): \(advice)")
        }
    }

    // MARK: Shares

    /// Refuses a record call on a zone's share record (`cloudkit.zoneshare`, type
    /// `cloudkit.share`): participants may not change the share (`permissionFailure`), and the
    /// owner changes it through the share calls only (`invalidArguments`).
    public static func refuseShareRecordChange(_ recordName: String, recordType: String,
                                               request: DatabaseRequest) throws(CloudError) {
        guard recordName == Share.recordName || recordType == Share.recordType else { return }
        if request.sharedOwner != nil {
            throw CloudError(.permissionFailure, "participants cannot change the share of a zone; only its owner can")
        }
        throw CloudError(.invalidArguments,
                         "'\(Share.recordName)' (\(Share.recordType)) is the zone's share: change it with 'cloudsync share'")
    }

    // MARK: Identities and messages in the public database

    /// Checks a record saved in the public database against the identity rules: a record
    /// named like a userRecordName (`_` and 32 hex digits), such as the `UserIdentity` record
    /// that publishes an account's key, may be created only by that user, and a `UserIdentity`
    /// must be so named; a `Message` must name its sender (`from`) as the caller. Otherwise anyone
    /// could squat another account's public key or forge the sender of a message.
    public static func validatePublicSave(_ record: Record, caller: String) throws(CloudError) {
        let name = record.recordID.recordName
        let userShaped = name.utf8.count == 33 && name.hasPrefix("_") && name.dropFirst().allSatisfy(\.isHexDigit)
        if (userShaped || record.recordType == "UserIdentity") && name != caller {
            throw CloudError(.permissionFailure,
                             "record '\(name)' in the public database is the user record of another account; only that account can write it")
        }
        if record.recordType == "Message", case .reference(let from)? = record["from"], from.recordID.recordName != caller {
            throw CloudError(.permissionFailure, "a Message's 'from' must be its sender's own user record")
        }
    }

    // MARK: Predicates

    /// Checks a predicate that the cloud evaluates (a query, a stored query subscription): at
    /// most ``CloudSyncCore/Predicate/maxNestingDepth`` levels, so evaluating it cannot overflow
    /// the stack.
    public static func validatePredicate(_ predicate: Predicate) throws(CloudError) {
        try predicate.validateNesting()
        try predicate.validateWidth()
        try predicate.validateSystemKeys()
    }
}
