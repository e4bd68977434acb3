import Glibc

/// Reads a script line by line from a file descriptor, joining lines that end with a
/// backslash (outside quotes and comments) with the next one, as a shell does. A line longer
/// than `maximumLineBytes` (a file such as `/dev/zero` that never ends a line) stops the
/// reading with `overlong` set, instead of filling the memory.
public final class FileLineReader {
    /// The longest logical line read (1 MiB).
    public static let maximumLineBytes = 1 << 20

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line break resumes (bytes before it hold none).
    private var scanned = 0
    private var atEnd = false
    /// The number of the last physical line read (1-based).
    public private(set) var lineNumber = 0
    /// True when reading stopped at a line longer than the limit.
    public private(set) var overlong = false

    /// The longest line this reader takes.
    private let limit: Int

    /// A reader of `fd` (which it does not close), taking lines of at most `maximumLineBytes`.
    public init(fd: Int32, maximumLineBytes: Int = FileLineReader.maximumLineBytes) {
        self.fd = fd
        self.limit = maximumLineBytes
    }

    /// The next logical line and the number of its first physical line, or nil at the end (or
    /// at an overlong line: see `overlong`).
    public func nextLogicalLine() -> (number: Int, text: String)? {
        guard var text = nextLine() else { return nil }
        let number = lineNumber
        while CommandLineSplitter.continues(text), let more = nextLine() {
            text.removeLast()
            text += more
            if text.utf8.count > limit { return stop() }
        }
        return (number, text)
    }

    /// The next physical line without its line break (and a `\r` before it), or nil at the end.
    public func nextLine() -> String? {
        while !overlong {
            if let newline = buffer[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                start = newline + 1
                scanned = start
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                lineNumber += 1
                return String(decoding: line, as: UTF8.self)
            }
            scanned = buffer.count
            if buffer.count - start > limit { return stop() }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                scanned = start
                lineNumber += 1
                return String(decoding: line, as: UTF8.self)
            }
            fill()
        }
        return nil
    }

    private func stop<T>() -> T? {
        overlong = true
        buffer = []
        start = 0
        scanned = 0
        return nil
    }

    private func fill() {
        if start > 0 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer += chunk[0..<count]
                return
            }
            if count < 0 && errno == EINTR { continue }
            atEnd = true
            return
        }
    }
}
