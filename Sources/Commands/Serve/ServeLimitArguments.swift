import CloudSyncCLI
import CloudSyncHTTPServer
import CloudSyncWebProtocol

/// The values of `serve`'s limit options: byte counts with a binary suffix and seconds.
enum ServeLimitArguments {
    /// `BYTES` as digits with an optional suffix K, M or G (powers of 1024; `KB`, `KiB`, … and
    /// lower case alike): `268435456`, `256M`, `1GiB`. Nil when it is not that or overflows.
    static func bytes(_ text: String) -> Int? {
        var digits = Substring(text)
        var scale = 1
        let suffixes: [(String, Int)] = [("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)]
        let lower = text.lowercased()
        for (letter, factor) in suffixes {
            for form in [letter + "ib", letter + "b", letter] where lower.hasSuffix(form) {
                digits = digits.dropLast(form.count)
                scale = factor
                break
            }
            if scale != 1 { break }
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits) else { return nil }
        let (product, overflow) = count.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }

    /// The quota of every account: `--quota-bytes` (default 10 GiB), nil for 0 (none).
    static func quota(_ text: String?) throws -> Int64? {
        guard let text else { return 10 << 30 }
        guard let count = bytes(text), count <= 1 << 50 else {
            throw CLIError.usage("--quota-bytes must be a byte count such as 10G, or 0 for no quota, not '\(text)'")
        }
        return count == 0 ? nil : Int64(count)
    }

    /// Seconds as a decimal number (`10`, `2.5`) within `range`, or nil.
    static func seconds(_ text: String, in range: ClosedRange<Double>) -> Duration? {
        guard let value = Double(text), value.isFinite, range.contains(value) else { return nil }
        return .milliseconds(Int64((value * 1000).rounded()))
    }

    /// `--max-poll-wait`: the longest a `notifications/poll` is held, 1 to 60 seconds (default
    /// the protocol's most, 60).
    static func maxPollWait(_ text: String?) throws -> Double {
        guard let text else { return NotificationsCodec.maxPollSeconds }
        guard let value = Double(text), value.isFinite, value >= 1, value <= NotificationsCodec.maxPollSeconds else {
            throw CLIError.usage("--max-poll-wait must be a number of seconds from 1 to 60, not '\(text)'")
        }
        return value
    }

    /// Applies `--max-body-memory`, `--max-connections-per-address` and `--header-timeout`
    /// (defaults 256 MiB, 32, 10 s) and keeps a quarter of the connections from long polls.
    static func apply(_ configuration: inout HTTPServerConfiguration, _ arguments: ParsedArguments) throws {
        configuration.maxBodyMemory = 256 << 20
        if let text = arguments.value("max-body-memory") {
            guard let count = bytes(text), count >= configuration.maxBodySize, count <= 1 << 40 else {
                throw CLIError.usage("--max-body-memory must be a byte count from \(configuration.maxBodySize >> 20)M "
                                     + "(the largest request body) to 1T, such as 256M, not '\(text)'")
            }
            configuration.maxBodyMemory = count
        }
        configuration.maxConnectionsPerAddress = 32
        if let text = arguments.value("max-connections-per-address") {
            guard let count = Int(text), count >= 0, count <= 100_000 else {
                throw CLIError.usage("--max-connections-per-address must be a number from 0 (no limit) to 100000, not '\(text)'")
            }
            configuration.maxConnectionsPerAddress = count
        }
        configuration.headerTimeout = .seconds(10)
        if let text = arguments.value("header-timeout") {
            guard let timeout = seconds(text, in: 0.1...3600) else {
                throw CLIError.usage("--header-timeout must be seconds from 0.1 to 3600, not '\(text)'")
            }
            configuration.headerTimeout = timeout
        }
        configuration.reservedConnections = configuration.maxConnections / 4
        // With per-address limits on, the last quarter of the table is kept for addresses that
        // hold fewer than two connections, so a handful of addresses cannot fill it together.
        if configuration.maxConnectionsPerAddress > 0 {
            configuration.connectionsKeptForNewAddresses = configuration.maxConnections / 4
        }
    }
}
