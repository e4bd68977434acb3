import CloudSyncService
import CloudSyncCore

/// `tokens/create`, `tokens/register` and the long-poll extension `notifications/poll`.
///
/// A device is named by an `apnsToken`: the hex of its device name's UTF-8 bytes (so that it
/// can sit in a URL). `tokens/create` (`{apnsEnvironment, deviceID?}`; the device name defaults to
/// the `X-CloudSync-Device` header) registers the device and answers `{apnsEnvironment,
/// apnsToken, webcourierURL}`, where `webcourierURL` is the path of `notifications/poll`.
/// `tokens/register` (`{apnsEnvironment, apnsToken}`) registers a known token again;
/// `tokens/unregister` (extension, same body) stops delivery.
///
/// `notifications/poll` (extension): `{apnsToken, timeout, limit}` → `{notifications: [...]}`.
/// It reads and acknowledges up to `limit` notifications of the device; when there are none it
/// holds the request up to `timeout` seconds (at most `maxPollSeconds`) and answers as soon as
/// one arrives, so a remote `subscribe listen` does not poll.
public enum NotificationsCodec {
    /// The longest a poll is held.
    public static let maxPollSeconds = 60.0

    public static func apnsToken(forDevice deviceID: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in deviceID.utf8 {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public static func device(fromAPNSToken token: String) throws(CloudError) -> String {
        let bytes = Array(token.utf8)
        func nibble(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        guard !bytes.isEmpty, bytes.count % 2 == 0, bytes.count <= 512 else { throw JSONFields.bad("malformed apnsToken") }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard let high = nibble(bytes[i]), let low = nibble(bytes[i + 1]) else { throw JSONFields.bad("malformed apnsToken") }
            out.append(high << 4 | low)
            i += 2
        }
        guard let name = String(validating: out, as: UTF8.self) else { throw JSONFields.bad("malformed apnsToken") }
        return name
    }

    public static func encodePoll(apnsToken: String, timeout: Double, limit: Int) -> JSONValue {
        .object([("apnsToken", .string(apnsToken)), ("timeout", .double(timeout)), ("limit", .int(Int64(limit)))])
    }

    public static func decodePoll(_ json: JSONValue) throws(CloudError) -> (device: String, timeout: Double, limit: Int) {
        _ = try JSONFields.object(json, "the request")
        guard let token = try JSONFields.string(json, "apnsToken", required: true) else { throw JSONFields.bad("no apnsToken") }
        var timeout = 0.0
        if let value = json["timeout"], value != .null {
            guard let seconds = value.doubleValue, seconds.isFinite, seconds >= 0 else {
                throw JSONFields.bad("'timeout' must be a number of seconds ≥ 0")
            }
            timeout = min(seconds, maxPollSeconds)
        }
        return (try device(fromAPNSToken: token), timeout,
                try JSONFields.limit(json, "limit", default: NotificationLimits.maxPerRead, maximum: NotificationLimits.maxPerRead))
    }

    public static func encodeNotifications(_ notifications: [CloudNotification]) -> JSONValue {
        .object([("notifications", .array(notifications.map(\.json)))])
    }

    public static func decodeNotifications(_ json: JSONValue) throws(CloudError) -> [CloudNotification] {
        var out: [CloudNotification] = []
        for entry in try JSONFields.array(json, "notifications", required: true) ?? [] {
            out.append(try CloudNotification(json: entry))
        }
        return out
    }
}
