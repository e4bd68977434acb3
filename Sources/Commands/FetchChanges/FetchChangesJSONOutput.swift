import CloudSyncCLI

/// What the fetchchanges commands print with --json (the man page's JSON OUTPUT section).
enum FetchChangesJSONOutput {
    static let fetchChanges = JSONOutput.lines("One line per event as it happens, then a summary line.", [("event", "changed, deleted, zoneDeleted, epochChanged or summary."), ("?record", "changed: the record as Apple's record dictionary; deleted: {recordName, recordType, deleted: true, zoneID}."), ("?zone", "zoneDeleted: {zoneID, deleted: true, purged}."), ("?reason", "zoneDeleted: deleted or purged."), ("?droppedRecords", "zoneDeleted and epochChanged: cached records dropped."), ("?droppedZones", "epochChanged: cached zones dropped."), ("?changed", "summary: records changed."), ("?deleted", "summary: records deleted."), ("?zonesFetched", "summary: zones fetched."), ("?zonesDeleted", "summary: zones deleted."), ("?upToDate", "summary: true when nothing changed.")])
}
