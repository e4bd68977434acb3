#if canImport(Glibc)
import Glibc
#endif
import CMicroHTTPD

/// The raw request target, checked before libmicrohttpd decodes it: the path it hands the access
/// handler is a C string, which a decoded `%00` cuts short (`users/current%00/../../x` arrived as
/// `users/current`). libmicrohttpd's URI log callback sees the target as sent; a refusal found
/// there is kept on the connection and answered (400) when the request's headers are in.
extension HTTPServer {
    static let requestTargetCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
        -> UnsafeMutableRawPointer? = { cls, uri, connection in
        guard let cls else { return nil }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        let context = server.library?.info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee.socket_context
            .map { Unmanaged<ConnectionContext>.fromOpaque($0).takeUnretainedValue() }
        guard let context else { return nil }
        let target = uri.map { UnsafeRawBufferPointer(start: $0, count: strlen($0)) } ?? UnsafeRawBufferPointer(start: nil, count: 0)
        do throws(RequestPathError) {
            try RequestPath.check(rawTarget: target)
            context.targetRefusal = nil
        } catch {
            context.targetRefusal = error
        }
        return nil  // the access handler's first call still finds an empty request slot
    }

    /// The refusal of the request whose target the callback refused, if it did (and forgets it:
    /// the next request on the connection is checked anew).
    func takeTargetRefusal(_ context: ConnectionContext?) -> HTTPRefusal? {
        guard let refusal = context?.targetRefusal else { return nil }
        context?.targetRefusal = nil
        return .badTarget(refusal)
    }
}
