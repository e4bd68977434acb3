#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` on a new pthread and returns it, to be joined with `pthread_join`: real concurrency
/// for the tests that make many clients or writers at once (the pool, group commit, the cluster).
public func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, Unmanaged.passRetained(Box(body)).toOpaque())
    precondition(created == 0, "pthread_create failed")
    return thread
}
