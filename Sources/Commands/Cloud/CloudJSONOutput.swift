import CloudSyncCLI
import CloudSyncSession

/// What the cloud commands print with --json (the man page's JSON OUTPUT section).
enum CloudJSONOutput {
    static let create = JSONOutput.document("The cloud.", [("cloud", "The cloud (no password)."), ("created", "true when it was made now, false when it existed.")])
    static let copy = JSONOutput.document("What was copied.", [("from", "The source (no password)."), ("to", "The target (no password)."), ("counts", "{table: rows} copied.")])
    static let check = JSONOutput.document("The check.", [("cloud", "The cloud (no password)."), ("format", "Its format."), ("version", "Its schema version."), ("counts", "{table: rows}."), ("problems", "What is wrong, one sentence each."), ("ok", "true when there are no problems.")])
}
