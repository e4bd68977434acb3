import CloudSyncCore
import Synchronization

/// Checks of resolved setting values that need knowledge this module does not have: the cloud
/// URL's forms belong to the session layer, which registers its check at the composition root
/// (`SessionSettings.registerChecks()`). `Settings.resolve` runs the check of each value it
/// resolves and reports a refusal as a usage error naming where the value came from.
public enum SettingChecks {
    /// Refuses a value with a one-line reason.
    public typealias Check = @Sendable (_ value: String) throws(CloudError) -> Void

    /// Makes `Settings.resolve` run `check` on the resolved value of `setting` (the latest
    /// registration for a setting wins).
    public static func register(_ setting: SettingSpec, _ check: @escaping Check) {
        settingChecks.withLock { $0 = SettingCheckEntry(setting: setting.name, check: check, next: $0) }
    }

    /// Runs the check registered for `setting`, if any.
    static func check(_ setting: SettingSpec, _ value: String) throws(CloudError) {
        let check = settingChecks.withLock { first -> Check? in
            var entry = first
            while let current = entry {
                if current.setting == setting.name { return current.check }
                entry = current.next
            }
            return nil
        }
        try check?(value)
    }
}

/// A registered check; the newest registration comes first. A list of a plain final class, not
/// a dictionary of typed-throws function values, whose metadata the runtime would build at
/// every start (see `CloudLocator`'s openers).
private final class SettingCheckEntry: Sendable {
    let setting: String
    let check: SettingChecks.Check
    let next: SettingCheckEntry?

    init(setting: String, check: @escaping SettingChecks.Check, next: SettingCheckEntry?) {
        self.setting = setting
        self.check = check
        self.next = next
    }
}

/// The registered checks.
private let settingChecks = Mutex<SettingCheckEntry?>(nil)
