import CloudSyncCore

/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A configuration value is out of range (why).
    case invalidConfiguration(String)
    /// The listen host did not resolve (host, resolver's message).
    case cannotResolve(String, String)
    /// No socket could listen on the address (address, system message), e.g. the port is in use.
    case cannotListen(String, String)
    /// A TLS certificate or key file could not be read (path, system message).
    case unreadableTLSFile(String, String)
    /// libmicrohttpd is not installed or too old.
    case library(SharedLibraryError)
    /// libmicrohttpd refused to start (e.g. a certificate and key that do not match).
    case startFailed(String)
    /// `start` was called twice.
    case alreadyStarted

    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "invalid server configuration: \(why)"
        case .cannotResolve(let host, let why): "cannot resolve listen host \(host): \(why)"
        case .cannotListen(let address, let why): "cannot listen on \(address): \(why)"
        case .unreadableTLSFile(let path, let why): "cannot read TLS file \(path): \(why)"
        case .library(let error): error.description
        case .startFailed(let why): "cannot start the HTTP server: \(why)"
        case .alreadyStarted: "the HTTP server is already started"
        }
    }
}
