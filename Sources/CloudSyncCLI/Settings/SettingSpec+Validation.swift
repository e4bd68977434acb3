import CloudSyncCore

extension SettingSpec {
    /// The values the setting takes, when it takes only some (its completion's words).
    public var allowedValues: [String]? {
        if case .values(let allowed) = completion { return allowed }
        return nil
    }

    /// The one validation of a value of this setting, whichever source it came from (the flag,
    /// the variable or the config file): `Settings.resolve` runs it on every picked value, so a
    /// value refused as `--environment prod` is refused as `CLOUDSYNC_ENVIRONMENT=prod` and as
    /// `environment = prod` in the config file, with the same suggestion.
    /// - Parameter source: where the value came from (`--environment`, `$CLOUDSYNC_ENVIRONMENT`,
    ///   `FILE:LINE`), named in the error.
    /// - Throws: `CLIError.usage` (64) naming the value, its source and what is accepted.
    public func validate(_ value: String, from source: String) throws(CLIError) {
        guard !value.isEmpty else { throw .usage("\(source) needs a non-empty value") }
        if let allowed = allowedValues, !allowed.contains(value) {
            var message = "invalid \(name) \(NameRules.quoted(value)) (from \(source)): expected "
                + allowed.map { "'\($0)'" }.joined(separator: ", ")
            if let hint = Suggestions.didYouMean(value, among: allowed) { message += "\n" + hint }
            throw .usage(message)
        }
        switch name {
        case SettingSpec.account.name, SettingSpec.device.name:
            guard Settings.isValidName(value) else {
                throw .usage("invalid \(name) name \(NameRules.quoted(value)) (from \(source)): use 1-64 ASCII letters, digits, '.', '-', '_' or '@', not '.' or '..'")
            }
        case SettingSpec.container.name:
            do throws(CloudError) {
                try NameRules.validateContainerIdentifier(value)
            } catch {
                throw .usage("\(error.reason) (from \(source))")
            }
        default:
            do throws(CloudError) {
                try SettingChecks.check(self, value)
            } catch {
                throw .usage("\(error.reason) (from \(source))")
            }
        }
    }
}
