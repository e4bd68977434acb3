import CloudSyncCLI
import CloudSyncDevice

extension CommandContext {
    /// The offline backoff of `sync --watch` and `subscribe listen --retry`: `$CLOUDSYNC_SYNC_BACKOFF`
    /// (`INITIAL,MAX` in seconds, for tests) or the default 1 s up to 60 s. A value that is not two
    /// numbers with 0 < INITIAL <= MAX <= 3600 is a setting error (64).
    public func syncBackoff() throws(CLIError) -> SyncBackoff {
        guard let variable = SettingSpec.syncBackoff.variable, let text = environment[variable], !text.isEmpty else {
            return SyncBackoff()
        }
        guard let backoff = SyncBackoff(parsing: text), backoff.maximum <= 3600 else {
            throw CLIError.setting("\(variable) must be INITIAL,MAX in seconds (0 < INITIAL <= MAX <= 3600), got '\(text)'")
        }
        return backoff
    }
}
