import CloudSyncCLI
import CloudSyncCore
import CloudSyncCrypto
import Glibc

/// `--asset-dir DIR` of `record get` and `store get`: writes the assets of records to files named
/// by their SHA-256 checksum (as the record's JSON names them: `fileChecksum`), so the same
/// contents are written once and a script finds a field's file from its JSON.
public enum AssetFiles {
    /// The `--asset-dir` option spec.
    public static let option = OptionSpec("asset-dir", value: "DIR",
                                          help: "Write the record's assets (and BYTES values) to DIR, one file per checksum.",
                                          completion: .file)

    /// Writes every asset (fetched with `fetch`) and every BYTES value of `fields` to `directory`.
    /// Returns (field name, path) for each file, in field-name order.
    public static func write(_ fields: [String: FieldValue], to directory: String,
                             fetch: (AssetReference) throws -> [UInt8]) throws -> [(field: String, path: String)] {
        try makeDirectory(directory)
        var written: [(String, String)] = []
        func store(_ field: String, _ checksum: String, _ contents: () throws -> [UInt8]) throws {
            let path = directory.hasSuffix("/") ? directory + checksum : directory + "/" + checksum
            try writeFile(path, try contents())
            written.append((field, path))
        }
        func visit(_ field: String, _ value: FieldValue) throws {
            switch value {
            case .asset(let reference):
                try store(field, reference.checksum) {
                    let bytes = try fetch(reference)
                    guard SHA256.hex(bytes) == reference.checksum else {
                        throw CloudError(.assetFileNotFound, "asset \(reference.checksum.prefix(12))… arrived damaged (checksum mismatch)")
                    }
                    return bytes
                }
            case .bytes(let bytes):
                try store(field, SHA256.hex(bytes)) { bytes }
            case .list(_, let items):
                for item in items { try visit(field, item) }
            default:
                break
            }
        }
        for name in fields.keys.sorted() { try visit(name, fields[name]!) }
        return written
    }

    static func makeDirectory(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw CLIError.usage("--asset-dir \(path) is not a folder") }
            return
        }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw CLIError.failed("cannot create \(path): \(SystemInfo.errorDescription(errno))")
        }
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CLIError.failed("cannot write \(path): \(SystemInfo.errorDescription(errno))") }
        let status = FileSystem.writeAll(fd, bytes)
        let closed = close(fd)
        guard status == 0, closed == 0, rename(temporary, path) == 0 else {
            let reason = SystemInfo.errorDescription(status != 0 ? status : errno)
            unlink(temporary)
            throw CLIError.failed("cannot write \(path): \(reason)")
        }
    }
}
