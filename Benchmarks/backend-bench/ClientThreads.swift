#if canImport(Glibc)
import Glibc
#endif

/// Runs `count` bodies on their own pthreads at once (real concurrency even on 2 cores, unlike
/// Dispatch's width) and returns their results in order once every thread has ended.
func runOnThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    final class Slot: @unchecked Sendable {
        let index: Int
        let body: @Sendable (Int) -> T
        var result: T?
        init(_ index: Int, _ body: @escaping @Sendable (Int) -> T) { self.index = index; self.body = body }
    }
    let slots = (0..<count).map { Slot($0, body) }
    var threads: [pthread_t] = []
    for slot in slots {
        var thread = pthread_t()
        let raw = Unmanaged.passRetained(slot).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            let slot = Unmanaged<Slot>.fromOpaque(raw!).takeRetainedValue()
            slot.result = slot.body(slot.index)
            return nil
        }, raw)
        if rc == 0 { threads.append(thread) } else { Unmanaged<Slot>.fromOpaque(raw).release(); slot.result = body(slot.index) }
    }
    for thread in threads { pthread_join(thread, nil) }
    return slots.map { $0.result! }
}
