import CloudSyncCore

/// Who administers a container. Container-wide acts (schema import, deploy and reset, naming
/// administrators) need an administrator: an account named in the container's list, or a
/// credential with the administrator role. On a store opened directly, the first account that
/// sets up a container's schema (or runs `cloudsync admin add`) becomes its first administrator;
/// through `serve`, no one claims a container: an operator names its administrators.
extension StorageBackedCloud {
    /// The accounts that administer `container`, by name.
    public func administrators(container: String) throws(CloudError) -> [String] {
        try read { tx in try tx.containerAdministrators(container: container) }
    }

    /// Makes `account` an administrator of `container`, as `caller` asks. The caller must be an
    /// administrator already, or hold the store of a container that has none. Returns false
    /// when the account was one already.
    @discardableResult
    public func addAdministrator(_ account: String, container: String, by caller: Caller) throws(CloudError) -> Bool {
        try NameRules.validateContainerIdentifier(container)
        return try write { tx in
            try requireAdministrator(caller, of: container, act: "naming an administrator", tx)
            return try tx.addContainerAdministrator(account, container: container, now: clock())
        }
    }

    /// Ends `account`'s administration of `container`, as `caller` (an administrator) asks. The
    /// last administrator cannot leave (`invalidArguments`) unless an admin-role credential asks.
    public func removeAdministrator(_ account: String, container: String, by caller: Caller) throws(CloudError) {
        try write { tx in
            try requireAdministrator(caller, of: container, act: "removing an administrator", tx, claim: false)
            let current = try tx.containerAdministrators(container: container)
            guard current.contains(account) else {
                throw CloudError(.unknownItem, "\(NameRules.quoted(account)) does not administer \(container)")
            }
            guard current.count > 1 || caller.hasAdminRole else {
                throw CloudError(.invalidArguments, "\(NameRules.quoted(account)) is the last administrator of \(container); add another first")
            }
            _ = try tx.removeContainerAdministrator(account, container: container)
        }
    }

    /// Throws `permissionFailure` (403 ACCESS_DENIED, exit 77) unless `caller` administers
    /// `container`. A caller holding the store claims a container that has no administrator
    /// (when `claim`), inside the same transaction as the act.
    func requireAdministrator(_ caller: Caller, of container: String, act: String, _ tx: any CloudStorageTransaction,
                              claim: Bool = true) throws {
        if caller.hasAdminRole { return }
        let administrators = try tx.containerAdministrators(container: container)
        if administrators.contains(caller.account) { return }
        if administrators.isEmpty, claim, caller.standing == .holdsStore {
            _ = try tx.addContainerAdministrator(caller.account, container: container, now: clock())
            return
        }
        throw CloudError(.permissionFailure,
                         "\(act) in \(container) needs an administrator of the container; \(NameRules.quoted(caller.account)) is not one "
                         + "(an administrator runs 'cloudsync admin add \(caller.account)', or an operator makes a token with "
                         + "'cloudsync token create --account NAME --admin')")
    }
}
