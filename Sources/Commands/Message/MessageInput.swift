import CloudSyncCLI
import CloudSyncSession
import CloudSyncIdentity
#if canImport(Glibc)
import Glibc
#endif

/// The plaintext of `message send`: the TEXT argument, `--file F` or `-` for stdin.
enum MessageInput {
    static func read(_ arguments: ParsedArguments) throws -> [UInt8] {
        let text = arguments.argument("text")
        let file = arguments.value("file")
        switch (text, file) {
        case (nil, nil): throw CLIError.usage("give the message as TEXT, --file FILE or - (stdin)")
        case (.some, .some): throw CLIError.usage("give TEXT or --file, not both")
        case ("-"?, nil): return try readAll("-")
        case (let text?, nil):
            return try checked(Array(text.utf8), "the message")
        case (nil, let file?): return try readAll(file)
        }
    }

    static func checked(_ bytes: [UInt8], _ what: String) throws -> [UInt8] {
        guard bytes.count <= MessageScheme.maxPlaintext else { throw tooLarge(what) }
        guard !bytes.isEmpty else { throw CLIError.badInput("\(what) is empty; nothing to send") }
        return bytes
    }

    static func tooLarge(_ what: String) -> CLIError {
        .badInput("\(what) is larger than \(MessageScheme.maxPlaintext) bytes, the most one message record holds (two sealed copies in 1 MB); send it in parts")
    }

    /// Reads a file or stdin, stopping as soon as it is over the limit.
    static func readAll(_ source: String) throws -> [UInt8] {
        let what = source == "-" ? "stdin" : source
        let fd: Int32 = source == "-" ? 0 : open(source, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.badInput("cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 { throw CLIError.badInput("cannot read \(source): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if bytes.count > MessageScheme.maxPlaintext { throw tooLarge(what) }
        }
        return try checked(bytes, what)
    }
}
