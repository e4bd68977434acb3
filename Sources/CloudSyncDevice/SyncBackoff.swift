/// The waits of `SyncEngine` while the cloud is unreachable: exponential from `initial` up to
/// `maximum` seconds, each with jitter (a random factor from 0.5 to 1), so that many devices
/// that lost the same server do not return in step.
public struct SyncBackoff: Sendable, Hashable {
    /// The first wait, in seconds.
    public var initial: Double
    /// The longest wait, in seconds.
    public var maximum: Double

    /// The default: 1 s, doubling, up to 60 s.
    public init(initial: Double = 1, maximum: Double = 60) {
        self.initial = max(0.001, initial)
        self.maximum = max(self.initial, maximum)
    }

    /// Parses `INITIAL,MAXIMUM` in seconds (what `CLOUDSYNC_SYNC_BACKOFF` holds, for tests), or
    /// nil when the text is not two positive numbers.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { Double(String($0.filter { $0 != " " })) }
        guard parts.count == 2, let first = parts[0], let second = parts[1], first > 0, second >= first,
              first.isFinite, second.isFinite else { return nil }
        self.init(initial: first, maximum: second)
    }

    /// The wait before try `attempt + 1` (attempt 0: the first retry), jitter included.
    public func delay(attempt: Int) -> Double {
        let base = min(maximum, initial * Double(1 << min(max(attempt, 0), 30)))
        return base * Double.random(in: 0.5...1.0)
    }
}
