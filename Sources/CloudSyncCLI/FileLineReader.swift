import Glibc

/// Reads a script line by line from a file descriptor, joining lines that end with a
/// backslash (outside quotes and comments) with the next one, as a shell does.
public final class FileLineReader {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// The number of the last physical line read (1-based).
    public private(set) var lineNumber = 0

    /// A reader of `fd` (which it does not close).
    public init(fd: Int32) {
        self.fd = fd
    }

    /// The next logical line and the number of its first physical line, or nil at the end.
    public func nextLogicalLine() -> (number: Int, text: String)? {
        guard var text = nextLine() else { return nil }
        let number = lineNumber
        while CommandLineSplitter.continues(text), let more = nextLine() {
            text.removeLast()
            text += more
        }
        return (number, text)
    }

    /// The next physical line without its line break (and a `\r` before it), or nil at the end.
    public func nextLine() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                start = newline + 1
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                lineNumber += 1
                return String(decoding: line, as: UTF8.self)
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = buffer[start...]
                start = buffer.count
                lineNumber += 1
                return String(decoding: line, as: UTF8.self)
            }
            fill()
        }
    }

    private func fill() {
        if start > 0 {
            buffer.removeFirst(start)
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
