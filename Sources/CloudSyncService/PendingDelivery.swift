import Synchronization

/// When a process delivers the record changes it wrote (`StorageBackedCloud.setPendingDeliveryMode`).
public enum PendingDeliveryMode: Sendable {
    /// Right after the commit, on the writer's thread: a command has delivered before it ends.
    case afterCommit
    /// On one background thread of the process, so the writer's caller is answered first
    /// (`cloudsync serve`).
    case background
}

/// The containers whose pending record changes this process still has to deliver, and whether
/// its background thread runs.
final class PendingDelivery: Sendable {
    /// What the caller of `takeWork` does.
    enum Work {
        /// Deliver these containers' changes now, on this thread.
        case now(Set<String>)
        /// Start the background thread (it calls `nextForWorker` until that returns nil).
        case startWorker
    }

    private struct State {
        var mode: PendingDeliveryMode = .afterCommit
        var containers: Set<String> = []
        var workerRuns = false
    }

    private let state = Mutex(State())

    func setMode(_ mode: PendingDeliveryMode) {
        state.withLock { $0.mode = mode }
    }

    /// A transaction queued a change in `container` (it may still roll back: delivering then
    /// finds nothing, which is harmless).
    func changeQueued(in container: String) {
        state.withLock { _ = $0.containers.insert(container) }
    }

    /// After a write: the work to do, or nil for none.
    func takeWork() -> Work? {
        state.withLock { state in
            guard !state.containers.isEmpty else { return nil }
            switch state.mode {
            case .afterCommit:
                defer { state.containers = [] }
                return .now(state.containers)
            case .background:
                guard !state.workerRuns else { return nil }
                state.workerRuns = true
                return .startWorker
            }
        }
    }

    /// The background thread's next containers; nil (and the thread ends) when none is left.
    func nextForWorker() -> Set<String>? {
        state.withLock { state in
            guard !state.containers.isEmpty else {
                state.workerRuns = false
                return nil
            }
            defer { state.containers = [] }
            return state.containers
        }
    }
}
