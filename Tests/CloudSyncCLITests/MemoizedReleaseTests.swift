import CloudSyncCLI
import Glibc
import Testing

/// What a command memoizes (a cloud session refers back to its context, a cycle) is released
/// when the command ends, so a REPL or script line does not keep its cloud connection open.
@Suite struct MemoizedReleaseTests {
    /// Counts its releases; holds the context as `CloudSession` does.
    final class Held: @unchecked Sendable {
        static let released = Counter()
        let context: CommandContext
        init(_ context: CommandContext) { self.context = context }
        deinit { Held.released.add() }
    }

    final class Counter: @unchecked Sendable {
        private var lock = pthread_mutex_t()
        private var count = 0
        init() { pthread_mutex_init(&lock, nil) }
        func add() { pthread_mutex_lock(&lock); count += 1; pthread_mutex_unlock(&lock) }
        var value: Int { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return count }
    }

    @Test func whatACommandMemoizedIsReleasedWhenItEnds() {
        let home = TempDir()
        defer { home.remove() }
        let hold = CommandSpec(name: "hold", abstract: "Keeps a session-like object", run: { context, _ in
            _ = context.memoized("test.held") { Held(context) }
        })
        let failing = CommandSpec(name: "hold-fail", abstract: "Keeps one, then fails", run: { context, _ in
            _ = context.memoized("test.held") { Held(context) }
            throw CLIError.failed("no")
        })
        let registry = Toy.registry(extra: [hold, failing])
        let before = Held.released.value
        for _ in 0..<5 { #expect(invoke(registry, ["hold"], environment: baseEnvironment(home: home)).status == 0) }
        #expect(invoke(registry, ["hold-fail"], environment: baseEnvironment(home: home)).status == 1)
        #expect(Held.released.value - before == 6)
    }
}
