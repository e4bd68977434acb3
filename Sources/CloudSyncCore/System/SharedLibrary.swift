#if canImport(Glibc)
import Glibc
#endif

/// Why a shared library loaded at run time is not usable.
public enum SharedLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `dlopen` failed: the library (its file name), why, and the Debian package that has it.
    case cannotOpen(String, String, package: String)
    /// The library lacks functions or variables this program needs (names).
    case missingSymbols(String, [String])

    public var description: String {
        switch self {
        case .cannotOpen(let library, let why, let package):
            "cannot load \(library) (\(why)); install it (Debian: \(package))"
        case .missingSymbols(let library, let names):
            "\(library) lacks \(names.joined(separator: ", ")); install a newer version"
        }
    }
}

/// A C library opened with `dlopen` when a command first needs it, instead of being linked:
/// every library linked normally costs every cloudsync process its relocations and
/// constructors at start, although only a few commands use it (readline: the REPL; qrencode:
/// `otp qr`; libpq: `--cloud postgres://`). It lives in CloudSyncCore so that every layer
/// (the command modules, CloudSyncPostgres) shares it. The handle is never closed: what is resolved from it stays valid for the process.
public struct SharedLibrary: @unchecked Sendable {
    /// The file name it was opened by (a soname such as `libreadline.so.8`).
    public let name: String
    let handle: UnsafeMutableRawPointer
    /// Symbols asked for and not found, reported by `checkResolved`.
    private var missing: [String] = []

    /// Opens `name` (`RTLD_NOW | RTLD_LOCAL`); `package` is named in the error.
    public init(_ name: String, package: String) throws(SharedLibraryError) {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            throw .cannotOpen(name, dlerror().map { String(cString: $0) } ?? "unknown dlopen error", package: package)
        }
        self.name = name
        self.handle = handle
    }

    /// A function of the library as the C function type `T` (`@convention(c)`, which must match
    /// the C declaration), or nil (remembered for `checkResolved`) when it is missing.
    public mutating func function<T>(_ symbol: String, as type: T.Type) -> T? {
        guard let address = dlsym(handle, symbol) else {
            missing.append(symbol)
            return nil
        }
        return unsafeBitCast(address, to: type)
    }

    /// The address of a global variable of the library, typed, or nil (remembered) when missing.
    public mutating func variable<T>(_ symbol: String, as type: T.Type) -> UnsafeMutablePointer<T>? {
        guard let address = dlsym(handle, symbol) else {
            missing.append(symbol)
            return nil
        }
        return address.assumingMemoryBound(to: type)
    }

    /// Throws when any symbol asked for was missing.
    public func checkResolved() throws(SharedLibraryError) {
        guard missing.isEmpty else { throw .missingSymbols(name, missing) }
    }

    /// True when `name` is already loaded in this process (it is not loaded by asking).
    public static func isLoaded(_ name: String) -> Bool {
        guard let handle = dlopen(name, RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }
}
