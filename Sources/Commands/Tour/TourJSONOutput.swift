import CloudSyncCLI

/// What the tour commands print with --json (the man page's JSON OUTPUT section).
enum TourJSONOutput {
    static let tour = JSONOutput.nothing("Refuses --json (exit 64): the tour is for people.")
}
