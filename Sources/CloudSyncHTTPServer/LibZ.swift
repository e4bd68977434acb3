import CZlib
import CloudSyncCore

/// zlib, opened with `dlopen` the first time a reply is compressed or a compressed body read, like
/// the server's other libraries: a process that never compresses does not load it.
struct LibZ: @unchecked Sendable {
    /// The file name loaded and the Debian package that has it.
    static let soname = "libz.so.1"
    static let package = "zlib1g"

    typealias DeflateInit = @convention(c) (z_streamp?, Int32, Int32, Int32, Int32, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    typealias InflateInit = @convention(c) (z_streamp?, Int32, UnsafePointer<CChar>?, Int32) -> Int32
    typealias Step = @convention(c) (z_streamp?, Int32) -> Int32
    typealias End = @convention(c) (z_streamp?) -> Int32
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?

    let deflateInit: DeflateInit   // deflateInit2_
    let deflate: Step
    let deflateEnd: End
    let inflateInit: InflateInit   // inflateInit2_
    let inflate: Step
    let inflateEnd: End
    let version: UnsafePointer<CChar>

    /// The library, loaded and resolved on the first call.
    static func shared() throws(SharedLibraryError) -> LibZ {
        try loaded.get()
    }

    private static let loaded: Result<LibZ, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        var library = try SharedLibrary(soname, package: package)
        let deflateInit = library.function("deflateInit2_", as: DeflateInit.self)
        let deflate = library.function("deflate", as: Step.self)
        let deflateEnd = library.function("deflateEnd", as: End.self)
        let inflateInit = library.function("inflateInit2_", as: InflateInit.self)
        let inflate = library.function("inflate", as: Step.self)
        let inflateEnd = library.function("inflateEnd", as: End.self)
        let zlibVersion = library.function("zlibVersion", as: Version.self)
        try library.checkResolved()
        guard let deflateInit, let deflate, let deflateEnd, let inflateInit, let inflate, let inflateEnd,
              let version = zlibVersion?() else { throw .missingSymbols(soname, []) }
        return LibZ(deflateInit: deflateInit, deflate: deflate, deflateEnd: deflateEnd, inflateInit: inflateInit,
                    inflate: inflate, inflateEnd: inflateEnd, version: version)
    }
}
