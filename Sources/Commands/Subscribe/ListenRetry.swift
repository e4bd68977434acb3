import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice

/// `subscribe listen --retry`: a call that meets an unreachable cloud waits (`SyncBackoff`, the
/// watcher's backoff) and is tried again, with one line on stderr when the cloud goes away and
/// one when it is back. Disabled, a call runs once.
struct ListenRetry {
    let enabled: Bool
    let context: CommandContext
    let backoff: SyncBackoff

    init(enabled: Bool, context: CommandContext) throws {
        self.enabled = enabled
        self.context = context
        backoff = try context.syncBackoff()
    }

    /// Runs `body`; with retries on, waits out retryable failures. `after` runs once the cloud
    /// answers again after an outage, before `body` is tried (the device is registered again).
    func attempt<T>(after reconnect: () throws -> Void = {}, _ body: () throws -> T) throws -> T {
        guard enabled else { return try body() }
        var attempt = 0
        var since: Double?
        while true {
            do {
                if since != nil { try reconnect() }
                let value = try body()
                if let since {
                    context.output.writeError("online again after \(Self.seconds(NotificationClock.now() - since)) s\n")
                }
                return value
            } catch let error as CloudError where error.code.isRetryable {
                let delay = backoff.delay(attempt: attempt)
                attempt += 1
                if since == nil {
                    since = NotificationClock.now()
                    context.output.writeError("offline: \(error.reason); retrying in \(Self.seconds(delay)) s\n")
                }
                NotificationClock.sleep(delay)
            }
        }
    }

    /// Seconds for a message: whole seconds from 10 up, one decimal below.
    static func seconds(_ value: Double) -> String {
        value >= 10 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }
}
