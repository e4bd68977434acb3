import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// How an `HTTPCloud` tries a request again when no `serve` answered it: a connection refused
/// (nothing listening: a node restarting, a balancer whose backends are all down), or a 502, 503
/// or 504 that is not a Web Services error (a load balancer's own reply when the node behind it
/// died, was down or timed out). A `serve` that answers for itself (503 TRY_AGAIN_LATER with its
/// `retryAfter`) is left to `RetryingCloud`, so no call is retried twice over.
///
/// A refused connection and a balancer's 503 ("no server available") mean the request reached no
/// node, so every endpoint is tried again. A 502 or 504 may come after a node acted on the request:
/// those are tried again only for endpoints that are safe to repeat (the idempotent ones, and the
/// saves, whose repeat `HTTPCloud.modifyRecords` reconciles with what the first try applied).
/// Bounded: at most `maxAttempts` tries (`refusedAttempts` for refused connections),
/// exponential backoff from `baseDelay` to `maxDelay`.
public struct TransportRetryPolicy: Sendable, Hashable {
    public var maxAttempts: Int
    /// Tries in all when the connection is refused: a server restarting on its port is met
    /// again once, but a server that is away is left to the caller's own backoff (the sync
    /// engine's offline state, `subscribe listen --retry`), which would otherwise wait for
    /// retries of retries.
    public var refusedAttempts: Int
    public var baseDelay: Double
    public var maxDelay: Double

    /// Ten tries over about 6.5 s for a balancer's replies (longer than a balancer takes to mark
    /// a dead node down, even on a loaded machine); two, 0.1 s apart, for a refused connection.
    public init(maxAttempts: Int = 10, refusedAttempts: Int = 2, baseDelay: Double = 0.1, maxDelay: Double = 1) {
        self.maxAttempts = max(1, maxAttempts)
        self.refusedAttempts = max(1, min(refusedAttempts, self.maxAttempts))
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// No second try (a caller that handles every failure itself).
    public static let none = TransportRetryPolicy(maxAttempts: 1)

    /// What a failed try means for trying again.
    public enum Outcome: Sendable, Hashable {
        /// No node received the request: safe to send again.
        case notDelivered
        /// A node may have acted on it before failing (502, 504).
        case maybeApplied
        /// A real reply (or a failure not retried here).
        case final
    }

    /// The outcome of a reply: a gateway status without a Web Services error body is the
    /// balancer's, not serve's.
    public static func outcome(of reply: HTTPReply) -> Outcome {
        guard [502, 503, 504].contains(reply.status) else { return .final }
        let json = try? JSONValue.parse(bytes: reply.body)
        if json?["serverErrorCode"] != nil { return .final }
        return reply.status == 503 ? .notDelivered : .maybeApplied
    }

    /// Seconds to wait after the failed try number `attempt` (0-based).
    public func delay(attempt: Int) -> Double {
        min(baseDelay * Double(1 << min(attempt, 20)), maxDelay)
    }

    /// Sleeps with nanosleep.
    static func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
