import CMicroHTTPD
import CloudSyncCore

/// libmicrohttpd, opened with `dlopen` when a server starts instead of linked: only
/// `cloudsync serve` needs it (and GnuTLS, which it brings). Every function is resolved once per
/// process as a typed `@convention(c)` pointer; the two variadic ones (`MHD_start_daemon`,
/// `MHD_get_connection_info`) are kept as addresses and called through `CMicroHTTPD`'s inline shims.
struct LibMicroHTTPD: @unchecked Sendable {
    /// The file name loaded (libmicrohttpd 12's soname) and the Debian package that has it.
    static let soname = "libmicrohttpd.so.12"
    static let package = "libmicrohttpd12"

    typealias DaemonAction = @convention(c) (OpaquePointer?) -> Void
    typealias Quiesce = @convention(c) (OpaquePointer?) -> MHD_socket
    typealias GetValues = @convention(c) (OpaquePointer?, MHD_ValueKind, MHD_KeyValueIterator?,
                                          UnsafeMutableRawPointer?) -> Int32
    typealias LookupValue = @convention(c) (OpaquePointer?, MHD_ValueKind, UnsafePointer<CChar>?)
        -> UnsafePointer<CChar>?
    typealias CreateResponse = @convention(c) (Int, UnsafeMutableRawPointer?, MHD_ResponseMemoryMode) -> OpaquePointer?
    typealias AddHeader = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> MHD_Result
    typealias QueueResponse = @convention(c) (OpaquePointer?, UInt32, OpaquePointer?) -> MHD_Result
    typealias DestroyResponse = @convention(c) (OpaquePointer?) -> Void

    let startDaemon: UnsafeMutableRawPointer      // MHD_start_daemon (variadic)
    let connectionInfo: UnsafeMutableRawPointer   // MHD_get_connection_info (variadic)
    let quiesceDaemon: Quiesce                    // MHD_quiesce_daemon
    let stopDaemon: DaemonAction                  // MHD_stop_daemon
    let connectionValues: GetValues               // MHD_get_connection_values
    let lookupValue: LookupValue                  // MHD_lookup_connection_value
    let createResponse: CreateResponse            // MHD_create_response_from_buffer
    let addHeader: AddHeader                      // MHD_add_response_header
    let queueResponse: QueueResponse              // MHD_queue_response
    let destroyResponse: DestroyResponse          // MHD_destroy_response

    /// The library, loaded and resolved on the first call; the same error on every call when it
    /// cannot be loaded.
    static func shared() throws(SharedLibraryError) -> LibMicroHTTPD {
        try loaded.get()
    }

    /// True when libmicrohttpd has been loaded in this process.
    static var isLoaded: Bool { SharedLibrary.isLoaded(soname) }

    /// The one load of the process (a global's initialiser: run once, thread-safe).
    private static let loaded: Result<LibMicroHTTPD, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        var library = try SharedLibrary(soname, package: package)
        let startDaemon = library.function("MHD_start_daemon", as: UnsafeMutableRawPointer.self)
        let connectionInfo = library.function("MHD_get_connection_info", as: UnsafeMutableRawPointer.self)
        let quiesceDaemon = library.function("MHD_quiesce_daemon", as: Quiesce.self)
        let stopDaemon = library.function("MHD_stop_daemon", as: DaemonAction.self)
        let connectionValues = library.function("MHD_get_connection_values", as: GetValues.self)
        let lookupValue = library.function("MHD_lookup_connection_value", as: LookupValue.self)
        let createResponse = library.function("MHD_create_response_from_buffer", as: CreateResponse.self)
        let addHeader = library.function("MHD_add_response_header", as: AddHeader.self)
        let queueResponse = library.function("MHD_queue_response", as: QueueResponse.self)
        let destroyResponse = library.function("MHD_destroy_response", as: DestroyResponse.self)
        try library.checkResolved()
        guard let startDaemon, let connectionInfo, let quiesceDaemon, let stopDaemon, let connectionValues,
              let lookupValue, let createResponse, let addHeader, let queueResponse, let destroyResponse
        else { throw .missingSymbols(soname, []) }
        return LibMicroHTTPD(startDaemon: startDaemon, connectionInfo: connectionInfo, quiesceDaemon: quiesceDaemon,
                             stopDaemon: stopDaemon, connectionValues: connectionValues, lookupValue: lookupValue,
                             createResponse: createResponse, addHeader: addHeader, queueResponse: queueResponse,
                             destroyResponse: destroyResponse)
    }

    /// `MHD_get_connection_info(connection, kind)`.
    func info(_ connection: OpaquePointer?, _ kind: MHD_ConnectionInfoType) -> UnsafePointer<MHD_ConnectionInfo>? {
        cloudsync_mhd_connection_info(connectionInfo, connection, kind)
    }
}
