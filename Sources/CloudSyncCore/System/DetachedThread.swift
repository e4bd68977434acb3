#if canImport(Glibc)
import Glibc
#endif

/// Starts `body` on a new detached pthread (the HTTP server's watchdog and background
/// `MHD_stop_daemon`, the delivery of pending notifications); false when no thread could be made
/// (then `body` never runs).
@discardableResult
public func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box: @unchecked Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(&thread, nil, { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, box)
    guard rc == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        return false
    }
    pthread_detach(thread)
    return true
}
