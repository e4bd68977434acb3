import CloudSyncService
import CloudSyncCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Keeps one device in sync by itself, as CKSyncEngine does for an app: the scheduling around
/// `Synchronizer` (records: the store and the models in its zone, such as OTP tokens) and
/// `KeyValueSync` (the key-value store, with the sync switch).
///
/// - **Push** shortly after a commit by any process of the device: the engine watches the
///   device file with inotify (no timer) and, after a debounce (`Configuration.debounce`,
///   200 ms), runs one cycle; one cycle at a time, so at most one push is in flight.
/// - **Pull** on start, whenever the cloud signals a change for this device (the backend's
///   `NotificationWaiter`: wake-up files on the embedded cloud, LISTEN/NOTIFY on PostgreSQL, a
///   long poll over HTTP), and after every reconnection. The engine saves a database
///   subscription (`subscriptionID`) so that changes of other devices are announced.
/// - **Offline**: a cycle that meets an unreachable cloud is retried after a backoff with jitter
///   (`SyncBackoff`, 1 s up to 60 s); edits made meanwhile stay pending and go with the next cycle.
/// - **Switch**: every cycle syncs the key-value store first and reads `icloud_sync`; while it
///   is off the cycle makes no data call (the last value seen holds while offline). The device
///   stays registered and its waiter listens while off, so the switch turned on on another
///   device (a `keyValue` notification) wakes the engine at once.
/// - **Stop**: `stop()` (from another thread or a signal-handling thread) ends `run` after the
///   cycle in flight. A credential the cloud refuses (`notAuthenticated`, `permissionFailure`)
///   ends `run` by throwing; so does a failure that is not the network's once it happened
///   `Configuration.maxFailures` times in a row.
///
/// ```swift
/// let engine = SyncEngine(cloud: cloud, store: store, request: request, adapter: adapter)
/// // on a signal thread: engine.stop()
/// try engine.run { event in print(event) }
/// ```
public final class SyncEngine: @unchecked Sendable {
    /// How the engine schedules.
    public struct Configuration: Sendable {
        /// Seconds to wait after a local commit before pushing, so that a burst goes in one push.
        public var debounce: Double = 0.2
        /// The waits while the cloud is unreachable.
        public var backoff = SyncBackoff()
        /// Failures in a row that are not the network's (a damaged answer, local storage) before
        /// `run` gives up and throws.
        public var maxFailures = 5
        /// The sync options of every cycle (merge policy, batch size).
        public var options = SyncOptions()
        /// The database subscription the engine keeps so that other devices' changes wake it.
        public var subscriptionID = "private-changes"
        /// The longest single wait for a notification (a long poll is cut to what the server allows).
        public var notificationWait: Double = 55

        public init() {}
    }

    public let cloud: any CloudService
    public let store: DeviceStore
    public let request: DatabaseRequest
    public let configuration: Configuration
    let synchronizer: Synchronizer
    let keyValues: KeyValueSync
    let wake: WakePipe
    let stopping = Atomic<Bool>(false)
    let offline = OfflineFlag()
    /// The last value of the sync switch this engine saw (nil before the first cycle).
    public private(set) var syncOn: Bool?
    /// Whether the device is registered (so that key-value changes, the switch among them, are
    /// announced to it) and whether the subscription is saved; both redone after an outage.
    var registered = false
    var announced = false
    var waiterStarted = false
    /// Whether `run` is looping (a single `cycle()` starts no waiter thread).
    var watching = false

    /// An engine for the private database of `request`'s account, as `request`'s device.
    public init(cloud: any CloudService, store: DeviceStore, request: DatabaseRequest, adapter: any ModelAdapter,
                configuration: Configuration = Configuration()) throws(CloudError) {
        self.cloud = cloud
        self.store = store
        self.request = request
        self.configuration = configuration
        synchronizer = Synchronizer(cloud: cloud, store: store, request: request, adapter: adapter, options: configuration.options)
        keyValues = KeyValueSync(cloud: cloud, store: store, request: request)
        wake = try WakePipe()
    }

    var container: String { request.container }
    var device: DeviceAddress { DeviceAddress(request) }

    /// Asks `run` to return after the cycle in flight. Safe from any thread.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        offline.set(false)
        wake.post(WakePipe.stopByte)
    }

    // MARK: One cycle

    /// One cycle: reads the notifications waiting (when `notified`), syncs the key-value store
    /// and the switch, then, when sync is on, pushes and pulls. What `cloudsync sync` runs once.
    public func cycle(notified: Bool = false) throws(CloudError) -> [SyncEngineEvent] {
        let start = NotificationClock.now()
        var events: [SyncEngineEvent] = []
        // The device is registered and its waiter listens even while sync is off: the switch
        // turned on elsewhere is a key-value change, announced to every registered device
        // (a `keyValue` notification), so a watcher that saw it off wakes at once. The waiter
        // is made before the queue is read, so a notification enqueued between the read and
        // the first wait still wakes it (the waiter's contract).
        if !registered {
            try cloud.registerDevice(device)
            registered = true
        }
        if watching { try startWaiter() }
        if notified {
            while try cloud.takeNotifications(for: device, limit: NotificationLimits.maxPerRead).count == NotificationLimits.maxPerRead {}
        }
        try keyValues.sync()
        let on = try SyncToggle.isOn(store: store, container: container)
        if let before = syncOn, before != on { events.append(.toggle(on: on)) }
        syncOn = on
        guard on else {
            events.append(.cycle(milliseconds: Self.milliseconds(since: start), pending: try store.pendingCount(container: container),
                                 syncOn: false))
            return events
        }
        if !announced {
            _ = try cloud.saveSubscriptions([Subscription(subscriptionID: configuration.subscriptionID, kind: .database)], in: request)
            announced = true
        }
        let report = try synchronizer.sync()
        let elapsed = Self.milliseconds(since: start)
        for zone in report.recreatedZones { events.append(.zoneRecreated(zone)) }
        for zone in report.droppedZones { events.append(.zoneDropped(zone)) }
        for conflict in report.conflicts { events.append(.conflict(conflict)) }
        if report.savedRecords + report.deletedRecords + report.failures.count > 0 {
            events.append(.pushed(saved: report.savedRecords, deleted: report.deletedRecords, failed: report.failures.count,
                                  milliseconds: elapsed))
        }
        if report.pulledChanges + report.pulledDeletions > 0 {
            events.append(.pulled(changed: report.pulledChanges, deleted: report.pulledDeletions, milliseconds: elapsed))
        }
        events.append(.cycle(milliseconds: elapsed, pending: report.pendingAfter, syncOn: true))
        return events
    }

    // MARK: The loop

    /// Runs until `stop()`: a cycle on start, then one after each local commit (debounced), each
    /// notification, and each retry while offline. Returns after a stop; throws when the cloud
    /// refuses the credential or a failure that is not the network's repeats.
    public func run(_ onEvent: (SyncEngineEvent) -> Void) throws(CloudError) {
        let files = try DeviceFileWatcher(path: store.path)
        watching = true
        defer { watching = false }
        var due = true
        var notified = true
        var retryAt = 0.0
        var attempt = 0
        var failures = 0
        var offlineSince: Double?
        var seenVersion = try store.dataVersion()
        while !stopping.load(ordering: .sequentiallyConsistent) {
            if due && NotificationClock.now() >= retryAt {
                do {
                    seenVersion = try store.dataVersion()
                    let events = try cycle(notified: notified)
                    if let since = offlineSince {
                        onEvent(.online(offlineSeconds: NotificationClock.now() - since))
                        offlineSince = nil
                        offline.set(false)
                    }
                    for event in events { onEvent(event) }
                    due = false
                    notified = false
                    attempt = 0
                    failures = 0
                } catch {
                    if error.code == .notAuthenticated || error.code == .permissionFailure { throw error }
                    let delay = configuration.backoff.delay(attempt: attempt)
                    attempt += 1
                    retryAt = NotificationClock.now() + delay
                    if error.code.isRetryable {
                        failures = 0
                        if offlineSince == nil {
                            offlineSince = NotificationClock.now()
                            offline.set(true)
                            // The cloud may have lost what it knew of this device (a new server, a purge).
                            announced = false
                            registered = false
                            onEvent(.offline(reason: error.reason, retryIn: delay))
                        }
                    } else {
                        failures += 1
                        if failures >= configuration.maxFailures { throw error }
                        onEvent(.failed(error, retryIn: delay))
                    }
                }
                continue
            }
            // Sleep until a commit, a notification, a stop, or the retry time.
            var timeout: Int32 = -1
            if due { timeout = Int32(max(0, min(retryAt - NotificationClock.now(), 3600)) * 1000 + 1) }
            var fds = [pollfd(fd: files.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, timeout)
            guard ready > 0 else { continue }
            if fds[1].revents != 0 {
                let bytes = wake.drain()
                if bytes.contains(WakePipe.notificationByte) { due = true; notified = true }
            }
            if fds[0].revents != 0, files.drain() {
                // Debounce: let a burst of commits finish, then look once.
                pause(configuration.debounce)
                _ = files.drain()
                if try store.dataVersion() != seenVersion { due = true }
            }
        }
    }

    /// Sleeps `seconds` unless a stop comes first.
    func pause(_ seconds: Double) {
        var fd = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
        let deadline = NotificationClock.now() + seconds
        while !stopping.load(ordering: .sequentiallyConsistent) {
            let left = deadline - NotificationClock.now()
            if left <= 0 { return }
            if poll(&fd, 1, Int32(left * 1000) + 1) > 0 { return }
        }
    }

    /// Starts the thread that sleeps on the backend's notification waiter and wakes the loop.
    /// While offline it stays idle (no request) until the loop is online again.
    func startWaiter() throws(CloudError) {
        guard !waiterStarted else { return }
        let waiter = try cloud.makeNotificationWaiter(for: device)
        waiterStarted = true
        let wake = self.wake
        let offline = self.offline
        let seconds = configuration.notificationWait
        let engine = self
        let box = WaiterBox(waiter)
        DetachedThread.start {
            let waiter = box.waiter
            while !engine.stopping.load(ordering: .sequentiallyConsistent) {
                offline.waitUntilOnline()
                if engine.stopping.load(ordering: .sequentiallyConsistent) { return }
                if waiter.wait(timeout: seconds) { wake.post(WakePipe.notificationByte) }
            }
        }
    }

    static func milliseconds(since start: Double) -> Int64 {
        Int64(((NotificationClock.now() - start) * 1000).rounded())
    }
}

/// The engine's self-pipe: the waiter thread and `stop()` write one byte, the loop polls it.
final class WakePipe: @unchecked Sendable {
    static let notificationByte: UInt8 = 0x6E
    static let stopByte: UInt8 = 0x73
    let readFD: Int32
    let writeFD: Int32

    init() throws(CloudError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw CloudError(.internalError, "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    func post(_ byte: UInt8) {
        var value = byte
        _ = write(writeFD, &value, 1)
    }

    func drain() -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress, $0.count) }
            guard n > 0 else { return all }
            all += buffer[0..<n]
        }
    }
}

/// Whether the engine is offline, for the waiter thread to wait on without requests.
final class OfflineFlag: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var isOffline = false

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func set(_ value: Bool) {
        pthread_mutex_lock(mutex)
        isOffline = value
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    func waitUntilOnline() {
        pthread_mutex_lock(mutex)
        while isOffline { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}

/// A waiter handed to the one thread that uses it.
final class WaiterBox: @unchecked Sendable {
    let waiter: any NotificationWaiter
    init(_ waiter: any NotificationWaiter) { self.waiter = waiter }
}

/// A detached thread.
enum DetachedThread {
    static func start(_ body: @escaping @Sendable () -> Void) {
        let entry = Unmanaged.passRetained(ThreadEntry(body)).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadEntry>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, entry) == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<ThreadEntry>.fromOpaque(entry).release()
        }
    }
}
