import CQREncode
import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore

/// libqrencode, opened when the first QR code is drawn (`otp export --qr`, `otp add --qr`…)
/// instead of linked into every cloudsync process; `CQREncode` supplies only its types.
struct QREncodeLibrary: Sendable {
    /// The soname of libqrencode 4.
    static let soname = "libqrencode.so.4"

    typealias EncodeString = @convention(c) (UnsafePointer<CChar>?, Int32, QRecLevel, QRencodeMode, Int32)
        -> UnsafeMutablePointer<QRcode>?
    typealias Free = @convention(c) (UnsafeMutablePointer<QRcode>?) -> Void

    /// `QRcode_encodeString`.
    let encodeString: EncodeString
    /// `QRcode_free`.
    let free: Free

    /// The library, loaded on the first call (once per process, thread-safe).
    static func shared() throws(SharedLibraryError) -> QREncodeLibrary {
        try loaded.get()
    }

    private static let loaded: Result<QREncodeLibrary, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        var library = try SharedLibrary(soname, package: "libqrencode4")
        let encodeString = library.function("QRcode_encodeString", as: EncodeString.self)
        let free = library.function("QRcode_free", as: Free.self)
        try library.checkResolved()
        return QREncodeLibrary(encodeString: encodeString!, free: free!)
    }
}
