import CloudSyncCore
import TestSupport
import Testing

/// The RFC test secret "12345678901234567890" in base32.
let rfcSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

/// What a finished `cloudsync` left.
typealias RunResult = ProcessResult

extension ProcessResult {
    /// stdout without its trailing newline.
    var out: String {
        var text = stdout
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}

extension BinaryRunner {
    /// The names `otp list --json` shows on a device.
    func tokenNames(_ device: String) throws -> [String] {
        try exec(["otp", "list", "--json"], device: device).json()["tokens"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    /// `otp code QUERY --at @T -q`.
    func code(_ query: String, at time: Int64, device: String) -> String {
        exec(["otp", "code", query, "--at", "@\(time)", "-q"], device: device).out
    }
}

/// True when `needle` occurs in `haystack`.
func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= haystack.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
    }
    return false
}

extension BinaryRunner {
    /// Runs `cloudsync` (TestSupport's spawner: close-on-exec pipes, stdin fed from a thread).
    @discardableResult
    func exec(_ arguments: [String], device: String? = nil, stdin input: String = "", env extra: [String: String] = [:]) -> RunResult {
        run(arguments, device: device, stdin: input, env: extra)
    }
}
