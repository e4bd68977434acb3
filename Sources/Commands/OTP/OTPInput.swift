import CloudSyncCLI
import CloudSyncSession
#if canImport(Glibc)
import Glibc
#endif

/// Reading secrets, files and passwords (never from the command line itself).
enum OTPInput {
    /// The largest input file read (import files, secret files).
    static let maximumBytes = 64 << 20

    /// All bytes of a file, or of stdin for `-`.
    static func read(_ path: String) throws -> [UInt8] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CLIError.badInput("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { if path != "-" { close(fd) } }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                out += buffer[0..<n]
                guard out.count <= maximumBytes else { throw CLIError.badInput("\(path) is larger than \(maximumBytes >> 20) MB") }
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 {
                throw CLIError.badInput("cannot read \(path): \(String(cString: strerror(errno)))")
            } else {
                return out
            }
        }
    }

    /// The single non-empty line of a text (a secret, a URI or a password); more than one is an error.
    static func singleLine(_ bytes: [UInt8], source: String) throws -> String {
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
            .map { String($0) }.filter { !$0.allSatisfy(\.isWhitespace) }
        guard let first = lines.first else { throw CLIError.badInput("\(source) is empty") }
        guard lines.count == 1 else {
            throw CLIError.badInput("\(source) has \(lines.count) lines; give one secret or URI ('otp import' reads many)")
        }
        return first
    }

    /// The secret of `otp add`: `--secret-file`, else a no-echo prompt on a terminal, else stdin.
    /// No secret at all (an empty answer or stdin) is a usage error (64), as every missing secret
    /// input is; a file that holds nothing is bad input (65).
    static func secret(_ context: CommandContext, file: String?) throws -> String {
        let missing = CLIError.usage("no secret given: type it at the prompt, pipe it on stdin or use --secret-file FILE (or --generate)")
        if let file {
            let bytes = try read(file)
            if file == "-" && bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { throw missing }
            return try singleLine(bytes, source: file == "-" ? "stdin" : file)
        }
        if context.isInteractive {
            guard let typed = Prompt.secret("Secret (base32) or otpauth:// URI: ", output: context.output), !typed.isEmpty else {
                throw missing
            }
            return typed
        }
        let bytes = try read("-")
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { throw missing }
        return try singleLine(bytes, source: "stdin")
    }

    /// A password for an encrypted import: `--password-file`, `$CLOUDSYNC_IMPORT_PASSWORD`, or a
    /// no-echo prompt on a terminal.
    static func importPassword(_ context: CommandContext, file: String?, stdinTaken: Bool) throws -> String {
        if let file {
            let bytes = try read(file)
            var text = String(decoding: bytes, as: UTF8.self)
            while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
            guard !text.isEmpty else { throw CLIError.badInput("the password file \(file) is empty") }
            return text
        }
        if let value = context.environment["CLOUDSYNC_IMPORT_PASSWORD"], !value.isEmpty { return value }
        if context.isInteractive && !stdinTaken, let typed = Prompt.secret("Password of the backup: ", output: context.output),
           !typed.isEmpty {
            return typed
        }
        throw CLIError.usage("the backup is encrypted: give its password with --password-file FILE, CLOUDSYNC_IMPORT_PASSWORD or on a terminal")
    }

    /// Writes a file only its owner can read (0600), replacing it.
    static func writePrivate(_ path: String, _ text: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CLIError.failed("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        fchmod(fd, 0o600)
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw CLIError.failed("cannot write \(path): \(String(cString: strerror(errno)))") }
            offset += n
        }
    }
}
