import CloudSyncCLI
import CloudSyncCore
import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// What a command needs to talk to the cloud as one device of one account: the opened
/// service, the resolved account, and the device's own store. Commands make one per
/// invocation through `CommandContext.session()`.
public final class CloudSession: @unchecked Sendable {
    /// The invocation this session serves.
    public let context: CommandContext
    /// The opened cloud service, wrapped so that "busy, try later" answers (a server's 503 with
    /// Retry-After, a rate limit) are retried a bounded number of times (`RetryPolicy.tryLater`)
    /// before a single-call command exits 75.
    public let cloud: any CloudService
    /// The opened cloud (with the fault hooks, when set) without the busy-only retries: what
    /// `retryingCloud` wraps instead, so that retries are never retried.
    let opened: any CloudService
    /// The account of `--account`, resolved (created on first use) by the cloud.
    public let account: Account

    init(context: CommandContext, opened: any CloudService, cloud: any CloudService, account: Account) {
        self.context = context
        self.opened = opened
        self.cloud = cloud
        self.account = account
    }

    /// What the session's cloud can do beyond the data calls: schema administration, sharing,
    /// the user directory (each nil when the cloud does not offer it), forwarded through the
    /// fault hooks and the retries.
    public var capabilities: CloudCapabilities { cloud.capabilities }

    /// The request for one database of the current container, as this device.
    public func request(_ scope: DatabaseScope) -> DatabaseRequest {
        DatabaseRequest(container: context.settings.container, scope: scope,
                        userRecordName: account.userRecordName, deviceID: context.settings.device,
                        environment: context.settings.environment)
    }

    /// Opens this device's store (creating it, mode 0600, in a 0700 folder).
    public func deviceStore() throws -> DeviceStore {
        try context.deviceStore()
    }

    /// The cloud wrapped so that transient failures are retried with bounded backoff: what the
    /// sync engine talks to. It replaces the busy-only retries of `cloud` (no retries of retries).
    public var retryingCloud: any CloudService {
        context.memoized("cloudsync.retrying") {
            RetryingCloud(wrapping: opened, onRetry: context.retryNotice()) as any CloudService
        }
    }
}

extension CommandContext {
    /// Opens the cloud named by `--cloud` and resolves the account, once per invocation.
    public func session() throws -> CloudSession {
        try memoized("cloudsync.session") { try openSession() }
    }

    func openSession() throws -> CloudSession {
        let locator = try CloudLocator(parsing: settings.cloudURL)
        var cloud = try openCloudAsAllowed(locator)
        let faults = environment["CLOUDSYNC_FAULTS"] ?? ""
        let callLog = environment["CLOUDSYNC_CALL_LOG"].flatMap { $0.isEmpty ? nil : $0 }
        if !faults.isEmpty || callLog != nil {
            // A bad plan is a configuration mistake, like a bad CLOUDSYNC_* name: usage (64).
            let plan: FaultPlan
            do { plan = try FaultPlan(parsing: faults) } catch { throw CLIError.setting(error.reason) }
            cloud = FaultInjectingCloud(wrapping: cloud, plan: plan, callLog: callLog)
        }
        let retrying = RetryingCloud(wrapping: cloud, policy: .tryLater, onRetry: retryNotice())
        let account = try retrying.account(named: settings.account)
        return CloudSession(context: self, opened: cloud, cloud: retrying, account: account)
    }

    /// Opens the cloud of `locator` as the cloud-file rule (`CloudCreation`) allows this
    /// command: the cloud itself (made, with its folder, where allowed), or for a read-only
    /// command on a default cloud not made yet an empty one in memory. Throws not found (3)
    /// where the command may not make it.
    public func openCloudAsAllowed(_ locator: CloudLocator) throws -> any CloudService {
        switch try CloudCreation.check(locator, context: self) {
        case .emptyInMemory:
            memoized(CloudCreation.inMemoryKey) { CloudCreation.Flag() }.isSet = true
            return try SQLiteCloud.emptyInMemory()
        case .cloud:
            if let folder = locator.localFolder {
                try FileSystem.makeDirectories(folder, mode: 0o700)
            }
            return try openCloud(locator)
        }
    }

    /// One line on stderr per retry of a transient failure, when stderr is a terminal (not with
    /// --quiet or --json): `retrying: <reason> (try 1 of 5 failed; again in 0.1 s)`.
    func retryNotice() -> (@Sendable (CloudError, Int, Int, Double) -> Void)? {
        guard output.showsProgress else { return nil }
        let output = output
        return { error, attempt, maxAttempts, delay in
            let seconds = (delay * 10).rounded() / 10
            output.writeErrorVerbatim("\r\u{1B}[2K")  // over a progress line, if one is drawn
            output.writeError("retrying: \(error.reason) (try \(attempt) of \(maxAttempts) failed; again in \(seconds) s)\n")
        }
    }

    /// Opens this device's store without touching the cloud (creating it, mode 0600, in a
    /// 0700 folder), once per invocation; a read-only command on a device with no file yet
    /// reads an empty store in memory instead (`CloudCreation.readsDeviceInMemory`).
    public func deviceStore() throws -> DeviceStore {
        try deviceStore(briefly: false)
    }

    /// The device's store, opened once per invocation; `briefly` (for short, read-mostly
    /// commands such as `otp code`) holds its lock while open when no other process has it
    /// open, which spares the shared-memory set-up, and maps the file (see
    /// `DeviceStore.init(path:briefly:)`). It applies only if this invocation opens the store
    /// first.
    public func deviceStore(briefly: Bool) throws -> DeviceStore {
        try memoized("cloudsync.deviceStore") {
            let path = settings.deviceStorePath
            if CloudCreation.readsDeviceInMemory(context: self, deviceFile: path) { return try DeviceStore.emptyInMemory() }
            try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: 0o700)
            return try DeviceStore(path: path, briefly: briefly)
        }
    }

    /// Parses `--database` (default `private`).
    public func databaseScope(_ arguments: ParsedArguments, default scope: DatabaseScope = .private) throws -> DatabaseScope {
        guard let text = arguments.value(ifDeclared: "database") else { return scope }
        guard let parsed = DatabaseScope(argument: text) else {
            throw CLIError.usage("unknown database '\(text)'; use private, shared or public")
        }
        return parsed
    }
}

extension CloudSession {
    /// The account's key-value store as this device syncs it (retrying transient failures).
    public func keyValueSync() throws -> KeyValueSync {
        KeyValueSync(cloud: retryingCloud, store: try deviceStore(), request: request(.private))
    }

    /// Where this device keeps the account's unwrapped data key (0600, folder 0700).
    public var dataKeyFile: String {
        "\(context.settings.environmentHome)/keys/\(context.settings.account)/\(context.settings.device)/\(context.settings.container).key"
    }

    /// The data-key manager of this account and device.
    public func dataKeyManager() throws -> DataKeyManager {
        DataKeyManager(keyValues: try keyValueSync(), keyFile: dataKeyFile)
    }

    /// The sync passphrase: `$CLOUDSYNC_PASSPHRASE` (or `variable`), else asked on the terminal
    /// without echo. None given (no variable, no terminal, or an empty answer) is a usage error
    /// (64), as every missing secret input is.
    public func passphrase(_ question: String = "Sync passphrase: ",
                           variable: String = "CLOUDSYNC_PASSPHRASE") throws(CLIError) -> String {
        if let value = context.environment[variable], !value.isEmpty { return value }
        if let typed = Prompt.secret(.text(question), output: context.output), !typed.isEmpty { return typed }
        let what = variable == "CLOUDSYNC_NEW_PASSPHRASE" ? "a new sync passphrase" : "a sync passphrase"
        throw CLIError.usage("\(what) is needed: set \(variable) or run on a terminal")
    }

    /// A new sync passphrase, for the account's first data key: `$CLOUDSYNC_PASSPHRASE`, else
    /// asked twice on the terminal (a typo here would lock out every other device). Different
    /// answers are bad input (65) and nothing is made.
    public func newPassphrase() throws(CLIError) -> String {
        if let value = context.environment["CLOUDSYNC_PASSPHRASE"], !value.isEmpty { return value }
        let first = try passphrase("New sync passphrase (every device of the account will ask for it): ")
        let again = try passphrase("New sync passphrase again: ")
        guard again == first else { throw CLIError.badInput("the two passphrases differ; no data key was made") }
        return first
    }

    /// The data key of `manager`, unlocked (or, on the account's first device, made) with the
    /// passphrase from `passphrase()`/`newPassphrase()`; their usage errors come out unchanged.
    public func unlockDataKey(_ manager: DataKeyManager) throws -> [UInt8] {
        var missing: CLIError?
        func relay(_ ask: () throws(CLIError) -> String) throws(CloudError) -> String {
            do { return try ask() } catch {
                missing = error
                throw CloudError(.permissionFailure, error.message)
            }
        }
        do {
            return try manager.unlock(passphrase: { () throws(CloudError) in try relay { () throws(CLIError) in try self.passphrase() } },
                                      newPassphrase: { () throws(CloudError) in try relay { () throws(CLIError) in try self.newPassphrase() } })
        } catch {
            if let missing { throw missing }
            throw error
        }
    }

    /// The adapter for a local store: `base`, plus field encryption when any field is marked
    /// encrypted or the account already has a data key this device can unlock.
    public func storeAdapter(_ base: any ModelAdapter) throws -> any ModelAdapter {
        let store = try deviceStore()
        let container = context.settings.container
        let marks = try EncryptionMarks.all(store: store, container: container)
        let manager = try dataKeyManager()
        var key = try manager.localKey()
        if key == nil {
            let accountHasKey = try store.keyValue(container: container, DataKeyManager.wrappedKeyName) != nil
            if !marks.isEmpty || (accountHasKey && context.environment["CLOUDSYNC_PASSPHRASE"] != nil) {
                key = try unlockDataKey(manager)
            }
        }
        return EncryptingAdapter(wrapping: base, encryptedFields: marks, key: key)
    }
}
