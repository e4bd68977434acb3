import CloudSyncCLI
import CloudSyncSession

/// What the share commands print with --json (the man page's JSON OUTPUT section).
enum ShareJSONOutput {
    /// A share, as create, add, remove and accept print it.
    static let shareKeys: [(String, String)] = [
        ("shareID", "The share record's name (cloudkit.zoneshare)."), ("zoneID", "{zoneName, ownerRecordName}."),
        ("owner", "{userRecordName, accountName}."), ("title", "What participants see."),
        ("publicPermission", "none, read-only or read-write."), ("url", "The URL participants accept."),
        ("participants", "[{userRecordName, accountName, permission, acceptanceStatus}]: pending or accepted."),
        ("created", "ms since the epoch."), ("modified", "ms since the epoch."),
    ]
    static let create = JSONOutput.document("The zone's share.", shareKeys)
    static let add = JSONOutput.document("The share with its participants.", shareKeys)
    static let remove = JSONOutput.document("The share without the removed participants.", shareKeys)
    static let accept = JSONOutput.document("The share accepted.", shareKeys)
    static let leave = JSONOutput.document("The share left, gone from this account's shared database.", [("accepted", "[{shareID, zoneID: {zoneName, ownerRecordName}, deleted: true}], as 'share list' lists accepted shares.")])
    static let delete = JSONOutput.document("The share deleted: every participant loses the zone.", [("owned", "[{shareID, zoneID: {zoneName, ownerRecordName}, deleted: true}], as 'share list' lists owned shares.")])
    static let list = JSONOutput.document("Your shares.", [("owned", "The shares you own, each as create prints it."),
                                                          ("accepted", "The shares you accepted, each as accept prints it.")])
}
