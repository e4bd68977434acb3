#if canImport(Glibc)
import Glibc
#endif

/// libcrypto opened with `dlopen` and its functions looked up by name, remembering the missing
/// ones: how `LibCrypto` and `LibCrypto.Signatures` each resolve their function tables.
struct LibCryptoSymbols {
    private let handle: UnsafeMutableRawPointer
    private var missing: [String] = []

    /// Opens libcrypto (`RTLD_NOW | RTLD_LOCAL`); a library that cannot load is `unavailable`.
    init() throws(CryptoError) {
        guard let handle = dlopen(LibCrypto.soname, RTLD_NOW | RTLD_LOCAL) else {
            throw .unavailable(LibCrypto.soname, LibCrypto.lastError())
        }
        self.handle = handle
    }

    /// The function `name` as the C function type `T`, or nil (remembered) when missing.
    mutating func resolve<T>(_ name: String, as type: T.Type) -> T? {
        guard let address = dlsym(handle, name) else {
            missing.append(name)
            return nil
        }
        return unsafeBitCast(address, to: type)
    }

    /// The error for the functions that were missing; the handle is closed, nothing of it is used.
    func unavailable() -> CryptoError {
        dlclose(handle)
        return .unavailable(LibCrypto.soname, "missing \(missing.joined(separator: ", "))")
    }
}
