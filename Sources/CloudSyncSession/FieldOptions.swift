import CloudSyncCLI
import CloudSyncService
import CloudSyncCore
import Glibc

/// The `--field NAME[:TYPE]=VALUE` options of every command that takes them, parsed in one place:
/// `=@FILE` reads the value from a file and `=@-` from stdin (once per command line), up to the
/// cloud's asset limit (`CloudLimits.maxAssetSize`, 50 MB).
public enum FieldOptions {
    /// The `--field` option spec the commands share (`help` is the command's own sentence).
    public static func option(help: String) -> OptionSpec {
        OptionSpec("field", short: "f", value: "NAME[:TYPE]=VALUE",
                   help: help + " VALUE @FILE reads a file, @- stdin.", repeatable: true)
    }

    /// Parses every `--field` of the command line, in order.
    public static func parse(_ arguments: ParsedArguments, defaultZone: ZoneID) throws -> [FieldArgument.Parsed] {
        var readStdin = false
        let reader: FieldArgument.FileReader = { (path: String) throws(CloudError) -> [UInt8] in
            if path == "-" {
                guard !readStdin else { throw CloudError(.invalidArguments, "only one field can be read from stdin (@-)") }
                readStdin = true
            }
            return try readValueFile(path)
        }
        var parsed: [FieldArgument.Parsed] = []
        for argument in arguments.values("field") {
            parsed.append(try FieldArgument.parse(argument, defaultZone: defaultZone, readFile: reader))
        }
        return parsed
    }

    /// Reads a value file (`-` is stdin): regular files, FIFOs (`<(command)`) and pipes, at most
    /// `CloudLimits.maxAssetSize` bytes.
    public static func readValueFile(_ path: String, limit: Int = CloudLimits.maxAssetSize) throws(CloudError) -> [UInt8] {
        let shown = path == "-" ? "stdin" : NameRules.quoted(path)
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CloudError(.invalidArguments, "cannot read \(shown): \(SystemInfo.errorDescription(errno))")
        }
        defer { if fd != 0 { close(fd) } }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw CloudError(.invalidArguments, "cannot read \(shown): it is a folder")
        }
        var bytes: [UInt8] = []
        if info.st_mode & S_IFMT == S_IFREG, info.st_size > 0, info.st_size <= limit {
            bytes.reserveCapacity(Int(info.st_size))
        }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                guard bytes.count + count <= limit else {
                    throw CloudError(.limitExceeded, "\(shown) is larger than the \(limit / 1_048_576) MB limit")
                }
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw CloudError(.invalidArguments, "cannot read \(shown): \(SystemInfo.errorDescription(errno))")
            }
        }
    }
}
