#if canImport(Glibc)
import Glibc
#endif

/// Human-readable progress on stderr (stdout is reserved for the one JSON document).
enum Log {
    static func line(_ text: String) {
        var line = text + "\n"
        _ = line.withUTF8 { FileIO.writeAll(STDERR_FILENO, UnsafeRawBufferPointer($0)) }
    }

    /// `value` with `digits` decimals, for messages.
    static func fixed(_ value: Double, _ digits: Int = 1) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
