import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebProtocol
import Synchronization

/// How many `notifications/poll` requests one caller may hold open at once.
public struct LongPollLimits: Sendable, Hashable {
    /// Per account and device (the device of the poll's `apnsToken`).
    public var perDevice: Int
    /// Per account, over all its devices (device names are the client's to choose).
    public var perAccount: Int
    /// The `retryAfter` (seconds) of a poll refused for being past a limit.
    public var retryAfterSeconds: Int

    public init(perDevice: Int = 8, perAccount: Int = 32, retryAfterSeconds: Int = 5) {
        self.perDevice = perDevice
        self.perAccount = perAccount
        self.retryAfterSeconds = retryAfterSeconds
    }
}

/// Counts the long polls open per account and per (account, device); thread-safe.
final class LongPollLimiter: Sendable {
    let limits: LongPollLimits
    private let open = Mutex<(accounts: [String: Int], devices: [String: Int])>(([:], [:]))

    init(_ limits: LongPollLimits) {
        self.limits = limits
    }

    /// Takes a slot for a poll of `account` on `device`; false when one of the limits is reached.
    func enter(account: String, device: String) -> Bool {
        let key = account + "\u{0}" + device
        return open.withLock { counts in
            guard counts.accounts[account, default: 0] < limits.perAccount,
                  counts.devices[key, default: 0] < limits.perDevice else { return false }
            counts.accounts[account, default: 0] += 1
            counts.devices[key, default: 0] += 1
            return true
        }
    }

    func leave(account: String, device: String) {
        let key = account + "\u{0}" + device
        open.withLock { counts in
            counts.accounts[account] = counts.accounts[account].flatMap { $0 > 1 ? $0 - 1 : nil }
            counts.devices[key] = counts.devices[key].flatMap { $0 > 1 ? $0 - 1 : nil }
        }
    }
}

extension WebServicesHTTPHandler {
    /// Runs `answer` for `request`, holding a long-poll slot when it is an authenticated
    /// `notifications/poll`; past `LongPollLimits` the poll is answered 429 `THROTTLED` with
    /// `retryAfter` instead, and its connection closed. Other requests (and polls the handler will refuse anyway: no account,
    /// a body that is not a poll) run as they are.
    func limitingLongPolls(_ request: HTTPRequest, account: String?,
                           _ answer: () -> WebServicesResponse) -> WebServicesResponse {
        guard let account, request.path.hasSuffix("/" + WebServicesEndpoint.notificationsPoll.rawValue),
              let json = try? JSONValue.parse(bytes: request.body),
              let device = try? NotificationsCodec.decodePoll(json).device else { return answer() }
        guard longPolls.enter(account: account, device: device) else {
            let limits = longPolls.limits
            let error = CloudError(.requestRateLimited,
                                   "too many long polls open for this account (at most \(limits.perDevice) per device "
                                   + "and \(limits.perAccount) in all); retry after \(limits.retryAfterSeconds) s",
                                   retryAfter: Double(limits.retryAfterSeconds))
            // Closed after the answer: a refused poller does not keep its connection idle.
            var refusal = handler.errorResponse(error, status: 429, uuid: handler.makeUUID())
            refusal.headers.append(("Connection", "close"))
            return refusal
        }
        defer { longPolls.leave(account: account, device: device) }
        return answer()
    }
}
