import CloudSyncCLI
import CloudSyncSession

/// What the record commands print with --json (the man page's JSON OUTPUT section).
enum RecordJSONOutput {
    static let save = JSONOutput.document("The saved record itself, as the cloud holds it now: Apple's record dictionary.", [("recordName", "The record name."), ("recordType", "The record type."), ("recordChangeTag", "The new change tag."), ("fields", "{name: {value, type}}."), ("created", "{timestamp, userRecordName, deviceID}."), ("modified", "{timestamp, userRecordName, deviceID}."), ("deleted", "false."), ("zoneID", "{zoneName, ownerRecordName}.")])
    static let get = JSONOutput.document("Apple's lookup reply, for one name or several.", [("records", "Each record as Apple's record dictionary; a name that was not found is {recordName, serverErrorCode: NOT_FOUND, reason}.")])
    static let delete = JSONOutput.document("The deleted records, as Apple's records/modify replies to deletes.", [("records", "Each as {recordName, deleted: true, zoneID}, records that referenced them with DELETE_SELF included.")])
    static let query = JSONOutput.document("Apple's query reply.", [("records", "The matching records, each as Apple's record dictionary."), ("continuationMarker", "Pass it to --continuation for the next page; null after the last.")])
}
