import CMicroHTTPD
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 (and HTTPS) server over libmicrohttpd that hands each complete request to an
/// `HTTPHandler`. It knows nothing of clouds; `cloudsync serve` plugs the Web Services handler in.
///
/// Threading: one thread per connection (`MHD_USE_THREAD_PER_CONNECTION`), bounded by
/// `maxConnections`. The handler API is synchronous and may block (store writes, long polls), so
/// it runs on its connection's own thread: a blocked handler delays no other connection (in
/// libmicrohttpd's thread-pool mode it would stall every connection of its pool thread). Handler
/// calls are gated (`maxConcurrentRequests` running, `maxQueuedRequests` waiting, then 503). A slow
/// client holds its thread for at most `connectionTimeout`: libmicrohttpd closes idle connections,
/// and a watchdog shuts down a connection whose headers or body are not in by the deadline even
/// if it keeps dribbling bytes.
///
/// Limits enforced before the handler: headers must be in within `headerTimeout`; the handler's
/// `admit` judges the head (the credential) before any body byte is read, and a refusal is sent
/// at once with the connection closed; a body over `maxBodySize` is refused as soon as
/// `Content-Length` (or the chunked byte count) passes it, and one that would take the bodies in
/// flight past `maxBodyMemory` too, without reading the rest; long polls (`HTTPHandler.isLongPoll`)
/// leave `reservedConnections` to the others; `maxConnectionsPerAddress` bounds one peer;
/// malformed HTTP is answered 400 by libmicrohttpd. The server words none of its refusals
/// (`HTTPRefusal`): the handler does (`HTTPHandler.response(to:)`), so a protocol's error shape
/// stays in the protocol's module.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let log: (@Sendable (HTTPRequestLogEntry) -> Void)?
    let timeoutNanoseconds: UInt64
    let headerTimeoutNanoseconds: UInt64

    /// Guards everything below, and is waited on for handler slots, draining and stopping.
    let lock = ConditionLock()
    /// Set once, before libmicrohttpd starts (its callbacks read it without the lock).
    var library: LibMicroHTTPD?
    var daemon: OpaquePointer?
    var listenFD: Int32 = -1
    var port: UInt16?
    var stopping = false
    var stopped = false
    /// Requests between their headers' arrival and their completion callback.
    var inFlight = 0
    var runningHandlers = 0
    var queuedHandlers = 0
    /// Ungated requests (long polls) in their handler now.
    var ungatedRunning = 0
    /// Bytes of request bodies held or announced now (`RequestContext.reserved` summed).
    var bodyBytesHeld = 0
    var connections: [ObjectIdentifier: ConnectionContext] = [:]
    /// Connections closed at accept because the table was crowded (`accepts`).
    var crowdedRefusals = 0
    /// The PEM texts given to libmicrohttpd, freed after it stops.
    var tlsTexts: [UnsafeMutablePointer<CChar>] = []

    /// A server that will answer with `handler` and report each answered request to `log`.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler,
                log: (@Sendable (HTTPRequestLogEntry) -> Void)? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.log = log
        self.timeoutNanoseconds = MonotonicClock.nanoseconds(configuration.connectionTimeout)
        self.headerTimeoutNanoseconds = MonotonicClock.nanoseconds(configuration.headerTimeout)
    }

    /// The TCP port listened on once started (the system's choice when configured as 0).
    public var boundPort: UInt16? {
        lock.withLock { port }
    }

    /// Connections refused so far because the table was crowded and their address already held
    /// its share (see `HTTPServerConfiguration.connectionsKeptForNewAddresses`).
    public var crowdedConnectionsRefused: Int {
        lock.withLock { crowdedRefusals }
    }

    /// Requests being read, handled or answered now.
    public var requestsInFlight: Int {
        lock.withLock { inFlight }
    }

    /// Binds, loads libmicrohttpd and starts answering. Throws when the configuration is out of
    /// range, the address cannot be bound, the TLS files cannot be read, or the library is missing.
    public func start() throws(HTTPServerError) {
        if let problem = configuration.problem() { throw .invalidConfiguration(problem) }
        guard lock.withLock({ daemon == nil && !stopping }) else { throw .alreadyStarted }
        let library: LibMicroHTTPD
        do { library = try LibMicroHTTPD.shared() } catch { throw .library(error) }
        var texts: [UnsafeMutablePointer<CChar>] = []
        if let tls = configuration.tls {
            texts = [try Self.readFile(tls.privateKeyPath), try Self.readFile(tls.certificatePath)]
        }
        let socket = try ListeningSocket(host: configuration.host, port: configuration.port,
                                         backlog: Int32(min(configuration.maxConnections, 4096)))
        // Set before the daemon starts: its threads (made after this) read it without the lock.
        lock.withLock { self.library = library }
        let context = Unmanaged.passRetained(self).toOpaque()
        var options = self.options(listenFD: socket.fd, context: context, tlsTexts: texts)
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
            | MHD_USE_ITC.rawValue | MHD_USE_POLL.rawValue
        if configuration.tls != nil { flags |= MHD_USE_TLS.rawValue }
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let started = options.withUnsafeMutableBufferPointer {
            cloudsync_mhd_start_daemon(library.startDaemon, flags, 0, Self.acceptPolicyCallback, Self.accessCallback, context,
                                       $0.baseAddress)
        }
        guard let started else {
            Unmanaged<HTTPServer>.fromOpaque(context).release()
            close(socket.fd)
            texts.forEach { free($0) }
            throw .startFailed(configuration.tls == nil ? "libmicrohttpd refused the configuration"
                               : "libmicrohttpd refused the configuration (do the TLS certificate and key match?)")
        }
        lock.withLock {
            self.daemon = started
            self.listenFD = socket.fd
            self.port = socket.port
            self.tlsTexts = texts
        }
        let interval = max(timeoutNanoseconds / 4, 10_000_000)
        startDetachedThread { [self] in watch(every: min(interval, 250_000_000)) }
    }

    /// Stops accepting connections, lets the requests in flight finish for at most `grace`, and
    /// returns. Requests still running then are cut off (their connections closed) in the
    /// background. Idle keep-alive connections are closed. Safe to call more than once.
    public func stop(grace: Duration = .seconds(10)) {
        let target: (OpaquePointer, LibMicroHTTPD, Int32)? = lock.withLock {
            guard let daemon, let library, !stopping else { return nil }
            stopping = true
            return (daemon, library, listenFD)
        }
        guard let (daemon, library, listenFD) = target else { return }
        // Quiescing hands the listening socket back (to close): no new connection is accepted.
        let quiesced = library.quiesceDaemon(daemon)
        if quiesced >= 0 { close(listenFD) }
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(grace)
        let drained = lock.withLock {
            while inFlight > 0 && MonotonicClock.now() < deadline { lock.wait(until: deadline) }
            return inFlight == 0
        }
        if drained {
            finish()
        } else {
            startDetachedThread { [self] in finish() }
        }
    }

    /// Stops libmicrohttpd (closing every connection, joining its threads) and frees what it used.
    private func finish() {
        guard let (daemon, library) = lock.withLock({ () -> (OpaquePointer, LibMicroHTTPD)? in
            guard let daemon, let library else { return nil }
            return (daemon, library)
        }) else { return }
        library.stopDaemon(daemon)
        let texts = lock.withLock {
            stopped = true
            self.daemon = nil
            lock.broadcast()
            defer { tlsTexts = [] }
            return tlsTexts
        }
        texts.forEach { free($0) }
        Unmanaged.passUnretained(self).release()
    }

    private func options(listenFD: Int32, context: UnsafeMutableRawPointer,
                         tlsTexts: [UnsafeMutablePointer<CChar>]) -> [MHD_OptionItem] {
        let timeoutSeconds = Int((timeoutNanoseconds + 999_999_999) / 1_000_000_000)
        var options = [
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenFD), ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: max(1, timeoutSeconds), ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_COMPLETED,
                           value: unsafeBitCast(Self.completedCallback, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .NOTIFY_CONNECTION,
                           value: unsafeBitCast(Self.connectionCallback, to: Int.self), ptr_value: context),
            MHD_OptionItem(option: .URI_LOG_CALLBACK,
                           value: unsafeBitCast(Self.requestTargetCallback, to: Int.self), ptr_value: context),
        ]
        if configuration.maxConnectionsPerAddress > 0 {
            options.append(MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT,
                                          value: configuration.maxConnectionsPerAddress, ptr_value: nil))
        }
        if tlsTexts.count == 2 {
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(tlsTexts[0])))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(tlsTexts[1])))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        return options
    }

    /// A file's text as a C string (malloc'd; libmicrohttpd reads PEM from memory).
    private static func readFile(_ path: String) throws(HTTPServerError) -> UnsafeMutablePointer<CChar> {
        guard let file = fopen(path, "rb") else { throw .unreadableTLSFile(path, String(cString: strerror(errno))) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n == 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > 1 << 20 { throw .unreadableTLSFile(path, "larger than 1 MiB") }
        }
        if ferror(file) != 0 { throw .unreadableTLSFile(path, "read error") }
        if bytes.isEmpty { throw .unreadableTLSFile(path, "empty file") }
        guard let raw = malloc(bytes.count + 1) else { throw .unreadableTLSFile(path, "out of memory") }
        let text = raw.assumingMemoryBound(to: CChar.self)
        bytes.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { text.update(from: $0.baseAddress!, count: bytes.count) }
        }
        text[bytes.count] = 0
        return text
    }
}
