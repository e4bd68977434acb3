import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
import CloudSyncSession
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The CLI face of `SyncEngine`: opens the session and the engine, holds the device's watcher
/// lock, turns SIGTERM/SIGINT into a clean stop, and prints each event (text, or NDJSON).
struct SyncWatch {
    let context: CommandContext
    let rules: StoreSyncRules

    func configuration(_ store: DeviceStore) throws -> SyncEngine.Configuration {
        var configuration = SyncEngine.Configuration()
        configuration.backoff = try context.syncBackoff()
        if let text = try store.syncState(container: context.settings.container, SyncVerb.mergePolicyKey) {
            guard let policy = MergePolicy(rawValue: text) else {
                throw CLIError.failed("the store's merge policy '\(text)' is unknown; set it with 'store config merge-policy'")
            }
            configuration.options.mergePolicy = policy
        }
        return configuration
    }

    func makeEngine(_ store: DeviceStore, _ configuration: SyncEngine.Configuration) throws -> SyncEngine {
        let session = try context.session()
        // The account's wrapped data key travels in the key-value store: learn it before the
        // adapter decides whether encrypted fields can be read (a new device has not seen it yet).
        try session.keyValueSync().sync()
        let forceData = try store.syncState(container: context.settings.container, SyncVerb.forceDataKey) == "on"
        let adapter = try session.storeAdapter(rules.storeAdapter(forceData: forceData))
        return try SyncEngine(cloud: session.retryingCloud, store: store, request: session.request(.private), adapter: adapter,
                              configuration: configuration)
    }

    /// `sync`: one cycle.
    func runOnce() throws {
        let store = try context.deviceStore()
        let engine = try makeEngine(store, try configuration(store))
        for event in try engine.cycle(notified: true) {
            print(event)
            // One cycle in text: say where it left the device.
            if case .cycle(_, let pending, let on) = event, !context.output.isJSON {
                context.output.line(on ? "in sync; \(pending) pending"
                                       : "sync is off for account \(context.settings.account): only the switch was asked for; \(pending) pending")
            }
        }
    }

    /// `sync --watch`: until a signal.
    func run() throws {
        let signals = StopSignals()
        let store = try context.deviceStore()
        let lock = try Self.lock(store)
        let configuration = try configuration(store)
        // Opening the session asks the cloud (the account); offline at start, wait for it.
        var attempt = 0
        var failures = 0
        var offlineSince: Double?
        var opened: SyncEngine?
        while opened == nil {
            if signals.stopped { return }
            do {
                opened = try makeEngine(store, configuration)
            } catch let error as CloudError where error.code == .quotaExceeded || error.code == .internalError {
                // Local storage (a full disk): retried as the engine retries it, ending the fifth time.
                failures += 1
                if failures >= configuration.maxFailures { throw error }
                let delay = configuration.backoff.delay(attempt: attempt)
                attempt += 1
                print(.failed(error, retryIn: delay))
                signals.sleep(delay)
            } catch let error as CloudError where error.code.isRetryable {
                let delay = configuration.backoff.delay(attempt: attempt)
                attempt += 1
                if offlineSince == nil {
                    offlineSince = NotificationClock.now()
                    print(.offline(reason: error.reason, retryIn: delay))
                    lock.update(state: "offline", lastCycle: nil)
                }
                signals.sleep(delay)
            }
        }
        guard let engine = opened else { return }
        signals.attach(engine)
        context.output.info("Watching device \(context.settings.device) of \(context.settings.account); Ctrl-C to stop.")
        if let since = offlineSince { print(.online(offlineSeconds: NotificationClock.now() - since)) }
        try engine.run { event in
            print(event)
            record(event, in: lock)
        }
    }

    /// The device's watcher lock; another watcher holding it is "try again later" (75).
    static func lock(_ store: DeviceStore) throws -> SyncWatcherLock {
        do {
            return try SyncWatcherLock(devicePath: store.path, now: systemClock())
        } catch where error.code == .zoneBusy {
            throw CLIError.tempFailure(error.reason)
        }
    }

    /// Keeps the status file that `store status` reads up to date.
    func record(_ event: SyncEngineEvent, in lock: SyncWatcherLock) {
        switch event {
        case .offline: lock.update(state: "offline", lastCycle: nil)
        case .cycle(_, _, let on): lock.update(state: on ? "online" : "off", lastCycle: systemClock())
        default: break
        }
    }

    /// Prints one event: NDJSON with --json; otherwise state changes on stderr and what moved on stdout.
    func print(_ event: SyncEngineEvent) {
        let out = context.output
        if out.isJSON {
            out.ndjson(SyncEventJSON.encode(event, time: systemClock()))
            out.flush()
            return
        }
        switch event {
        case .offline(let reason, let retryIn):
            out.writeError("offline: \(reason); retrying in \(SyncEventJSON.seconds(retryIn)) s\n")
        case .online(let seconds):
            out.writeError("online again after \(SyncEventJSON.seconds(seconds)) s\n")
        case .failed(let error, let retryIn):
            out.writeError("sync failed: \(error.reason); retrying in \(SyncEventJSON.seconds(retryIn)) s\n")
        case .toggle(let on):
            out.writeError(on ? "sync is on for account \(context.settings.account): sending again\n"
                              : "sync is off for account \(context.settings.account): sending nothing until it is on\n")
        case .pushed(let saved, let deleted, let failed, let ms):
            out.line("pushed \(saved) saved, \(deleted) deleted\(failed > 0 ? ", \(failed) refused (pending)" : "") in \(ms) ms")
        case .pulled(let changed, let deleted, let ms):
            out.line("pulled \(changed) changed, \(deleted) deleted in \(ms) ms")
        case .conflict(let conflict):
            out.line("conflict \(conflict.zoneName)/\(conflict.recordName): \(conflict.resolution)")
        case .zoneRecreated(let zone):
            out.writeError("zone \(zone) was missing in the cloud: re-created, its records uploaded again\n")
        case .zoneDropped(let zone):
            out.writeError("zone \(zone) was deleted in the cloud on purpose: dropped here too\n")
        case .cycle:
            break
        }
        out.flush()
    }
}

/// SIGTERM and SIGINT turned into `SyncEngine.stop()`: blocked on the main thread before any
/// other thread starts (threads inherit the mask), taken by a thread of their own with `sigwait`.
final class StopSignals: @unchecked Sendable {
    private let flag = Atomic<Bool>(false)
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        return mutex
    }()
    /// The engine to stop; under `mutex`.
    private var engine: SyncEngine?

    init() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let this = self
        var thread = pthread_t()
        let box = Unmanaged.passRetained(this).toOpaque()
        if pthread_create(&thread, nil, { raw in
            let signals = Unmanaged<StopSignals>.fromOpaque(raw!).takeRetainedValue()
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGTERM)
            sigaddset(&set, SIGINT)
            var received: Int32 = 0
            while sigwait(&set, &received) != 0 {}
            signals.fire()
            return nil
        }, box) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<StopSignals>.fromOpaque(box).release()
        }
    }

    var stopped: Bool { flag.load(ordering: .sequentiallyConsistent) }

    func fire() {
        flag.store(true, ordering: .sequentiallyConsistent)
        pthread_mutex_lock(mutex)
        let engine = self.engine
        pthread_mutex_unlock(mutex)
        engine?.stop()
    }

    /// From now on a signal stops `engine` (at once if one came already).
    func attach(_ engine: SyncEngine) {
        pthread_mutex_lock(mutex)
        self.engine = engine
        pthread_mutex_unlock(mutex)
        if stopped { engine.stop() }
    }

    /// Sleeps up to `seconds`, less if a signal comes.
    func sleep(_ seconds: Double) {
        let deadline = NotificationClock.now() + seconds
        while !stopped, NotificationClock.now() < deadline {
            NotificationClock.sleep(min(0.1, deadline - NotificationClock.now()))
        }
    }
}
