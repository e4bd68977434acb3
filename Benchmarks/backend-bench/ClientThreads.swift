#if canImport(Glibc)
import Glibc
#endif

/// The result slots of `runOnThreads`: each thread writes its own index; `pthread_join` orders
/// those writes before the reads.
final class ThreadResults<T: Sendable>: @unchecked Sendable {
    let values: UnsafeMutableBufferPointer<T?>
    init(_ count: Int) {
        values = .allocate(capacity: count)
        values.initialize(repeating: nil)
    }
    deinit {
        values.deinitialize()
        values.deallocate()
    }
}

/// A thread's body, passed through pthread_create's context pointer.
private final class ThreadBody: @unchecked Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

/// Runs `count` bodies on their own pthreads at once (real concurrency even on 2 cores, unlike
/// Dispatch's width) and returns their results in order once every thread has ended.
func runOnThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = ThreadResults<T>(count)
    var threads: [pthread_t] = []
    for index in 0..<count {
        let job = ThreadBody { results.values[index] = body(index) }
        let raw = Unmanaged.passRetained(job).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, raw)
        if rc == 0 {
            threads.append(thread)
        } else {
            Unmanaged<ThreadBody>.fromOpaque(raw).release()
            job.run()
        }
    }
    for thread in threads { pthread_join(thread, nil) }
    return results.values.map { $0! }
}
