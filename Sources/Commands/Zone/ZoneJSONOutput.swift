import CloudSyncCLI

/// What the zone commands print with --json (the man page's JSON OUTPUT section).
enum ZoneJSONOutput {
    static let create = JSONOutput.document("The zones, as they are now (existing ones unchanged).", [("zones", "Each zone as Apple's zone dictionary: zoneID, syncToken (absent without change tracking), atomic, capabilities, recordCount.")])
    static let list = JSONOutput.document("Every zone of the database.", [("zones", "Each zone as Apple's zone dictionary: zoneID, syncToken (absent without change tracking), atomic, capabilities, recordCount.")])
    static let delete = JSONOutput.document("The deleted zones.", [("zones", "Each as {zoneID, deleted: true, purged}: purged when deleted as the user would in iCloud settings.")])
}
