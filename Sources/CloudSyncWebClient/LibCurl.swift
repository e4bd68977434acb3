import CCurl
import CloudSyncCore
import CloudSyncWebProtocol

/// libcurl, opened with `dlopen` on the first HTTP request instead of linked: only
/// `--cloud http(s)://` needs it. `CCurl` supplies only the types and constants.
///
/// `curl_easy_setopt` and `curl_easy_getinfo` are variadic in C; they are resolved once per
/// argument kind (a `long`, a pointer, a `curl_off_t`, a callback) with a fixed prototype, which
/// is how the platform ABIs this builds for (x86-64 and AArch64 System V) pass those arguments.
struct LibCurl: @unchecked Sendable {
    static let soname = "libcurl.so.4"
    static let package = "libcurl4"

    typealias DataCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    typealias GlobalInit = @convention(c) (Int) -> CURLcode
    typealias EasyInit = @convention(c) () -> UnsafeMutableRawPointer?
    typealias EasyHandle = @convention(c) (UnsafeMutableRawPointer?) -> CURLcode
    typealias EasyReset = @convention(c) (UnsafeMutableRawPointer?) -> Void
    typealias SetLong = @convention(c) (UnsafeMutableRawPointer?, CURLoption, Int) -> CURLcode
    typealias SetOffset = @convention(c) (UnsafeMutableRawPointer?, CURLoption, Int64) -> CURLcode
    typealias SetPointer = @convention(c) (UnsafeMutableRawPointer?, CURLoption, UnsafeRawPointer?) -> CURLcode
    typealias SetCallback = @convention(c) (UnsafeMutableRawPointer?, CURLoption, DataCallback?) -> CURLcode
    typealias GetLong = @convention(c) (UnsafeMutableRawPointer?, CURLINFO, UnsafeMutablePointer<Int>?) -> CURLcode
    typealias StrError = @convention(c) (CURLcode) -> UnsafePointer<CChar>?
    typealias SlistAppend = @convention(c) (UnsafeMutablePointer<curl_slist>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>?
    typealias SlistFree = @convention(c) (UnsafeMutablePointer<curl_slist>?) -> Void

    let globalInit: GlobalInit      // curl_global_init
    let easyInit: EasyInit          // curl_easy_init
    let perform: EasyHandle         // curl_easy_perform
    let reset: EasyReset            // curl_easy_reset
    let cleanup: EasyReset          // curl_easy_cleanup
    let setLong: SetLong            // curl_easy_setopt(…, long)
    let setOffset: SetOffset        // curl_easy_setopt(…, curl_off_t)
    let setPointer: SetPointer      // curl_easy_setopt(…, pointer)
    let setCallback: SetCallback    // curl_easy_setopt(…, callback)
    let getLong: GetLong            // curl_easy_getinfo(…, long *)
    let strerror: StrError          // curl_easy_strerror
    let slistAppend: SlistAppend    // curl_slist_append
    let slistFree: SlistFree        // curl_slist_free_all

    /// The library, loaded, resolved and globally initialised on the first call.
    static func shared() throws(SharedLibraryError) -> LibCurl { try loaded.get() }

    private static let loaded: Result<LibCurl, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        var library = try SharedLibrary(soname, package: package)
        let globalInit = library.function("curl_global_init", as: GlobalInit.self)
        let easyInit = library.function("curl_easy_init", as: EasyInit.self)
        let perform = library.function("curl_easy_perform", as: EasyHandle.self)
        let reset = library.function("curl_easy_reset", as: EasyReset.self)
        let cleanup = library.function("curl_easy_cleanup", as: EasyReset.self)
        let setLong = library.function("curl_easy_setopt", as: SetLong.self)
        let setOffset = library.function("curl_easy_setopt", as: SetOffset.self)
        let setPointer = library.function("curl_easy_setopt", as: SetPointer.self)
        let setCallback = library.function("curl_easy_setopt", as: SetCallback.self)
        let getLong = library.function("curl_easy_getinfo", as: GetLong.self)
        let strerror = library.function("curl_easy_strerror", as: StrError.self)
        let slistAppend = library.function("curl_slist_append", as: SlistAppend.self)
        let slistFree = library.function("curl_slist_free_all", as: SlistFree.self)
        try library.checkResolved()
        guard let globalInit, let easyInit, let perform, let reset, let cleanup, let setLong, let setOffset, let setPointer, let setCallback,
              let getLong, let strerror, let slistAppend, let slistFree else { throw .missingSymbols(soname, []) }
        _ = globalInit(Int(CURL_GLOBAL_DEFAULT))
        return LibCurl(globalInit: globalInit, easyInit: easyInit, perform: perform, reset: reset, cleanup: cleanup, setLong: setLong,
                       setOffset: setOffset, setPointer: setPointer, setCallback: setCallback, getLong: getLong,
                       strerror: strerror, slistAppend: slistAppend, slistFree: slistFree)
    }
}
