import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// One piece of work run on its own thread while the caller does something else, then joined:
/// how a push reads its next batch from the device file while the cloud stores the current one.
///
/// The caller hands the work everything it touches (a `DeviceStore` and its connection) and
/// must not use any of it until `join()`; SQLite connections are opened without their own mutex,
/// so one connection on two threads at once is undefined. The join (or, if the job is dropped
/// without one, the deinit) waits for the thread, so the work never outlives its job. When no
/// thread can be made, the work runs at once on the caller's thread.
final class BackgroundJob<Value> {
    /// What the thread fills in: read by the caller only after `pthread_join`, which orders the
    /// thread's writes before the caller's reads.
    private final class Outcome {
        var result: Result<Value, CloudError>?
    }

    private let outcome = Outcome()
    private var thread: pthread_t?

    /// Starts `work`.
    init(_ work: @escaping () throws(CloudError) -> Value) {
        let outcome = self.outcome
        let run = { outcome.result = Result { () throws(CloudError) -> Value in try work() } }
        let entry = Unmanaged.passRetained(ThreadEntry(run)).toOpaque()
        var thread = pthread_t()
        if pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadEntry>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, entry) == 0 {
            self.thread = thread
        } else {
            Unmanaged<ThreadEntry>.fromOpaque(entry).release()
            run()
        }
    }

    /// Waits for the work and returns its value, or throws its error.
    func join() throws(CloudError) -> Value {
        waitForThread()
        guard let result = outcome.result else { throw CloudError(.internalError, "a background job ended without a result") }
        return try result.get()
    }

    private func waitForThread() {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
    }

    deinit { waitForThread() }
}

/// The closure a new thread runs (a C thread entry cannot capture a generic context).
final class ThreadEntry {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}
