import CMicroHTTPD
#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd's callbacks: C function pointers whose `cls` is the retained `HTTPServer`.
extension HTTPServer {
    static let accessCallback: MHD_AccessHandlerCallback = { cls, connection, url, method, _, data, size, requestSlot in
        guard let cls, let size, let requestSlot else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        return server.access(connection, url: url, method: method, data: data, size: size, requestSlot: requestSlot)
            ? MHD_Result.YES : MHD_Result.NO
    }

    static let completedCallback: MHD_RequestCompletedCallback = { cls, connection, requestSlot, _ in
        guard let cls, let requestSlot, let raw = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        Unmanaged<RequestContext>.fromOpaque(raw).release()
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        // On a kept-alive connection the next request's headers are due within the timeout.
        let connectionContext = server.library?.info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee
            .socket_context.map { Unmanaged<ConnectionContext>.fromOpaque($0).takeUnretainedValue() }
        server.lock.withLock {
            server.inFlight -= 1
            connectionContext?.deadline = MonotonicClock.now() + server.timeoutNanoseconds
            server.lock.broadcast()
        }
    }

    static let connectionCallback: MHD_NotifyConnectionCallback = { cls, connection, socketSlot, code in
        guard let cls, let socketSlot else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        if code == .CONNECTION_NOTIFY_STARTED {
            let fd = server.library?.info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd ?? -1
            let context = ConnectionContext(fd: fd, deadline: MonotonicClock.now() + server.timeoutNanoseconds)
            socketSlot.pointee = Unmanaged.passRetained(context).toOpaque()
            server.lock.withLock { server.connections[ObjectIdentifier(context)] = context }
        } else if let raw = socketSlot.pointee {
            socketSlot.pointee = nil
            let context = Unmanaged<ConnectionContext>.fromOpaque(raw).takeRetainedValue()
            server.lock.withLock { _ = server.connections.removeValue(forKey: ObjectIdentifier(context)) }
        }
    }

    /// One call of the access handler: first with the headers, then once per piece of body,
    /// then with nothing left (`size` 0) when the request is complete. False closes the connection.
    func access(_ connection: OpaquePointer?, url: UnsafePointer<CChar>?, method: UnsafePointer<CChar>?,
                data: UnsafePointer<CChar>?, size: UnsafeMutablePointer<Int>,
                requestSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> Bool {
        guard let library else { return false }
        let connectionContext = library.info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee.socket_context
            .map { Unmanaged<ConnectionContext>.fromOpaque($0).takeUnretainedValue() }
        guard let raw = requestSlot.pointee else {
            // The headers are in: the body (if any) must arrive within the timeout.
            let now = MonotonicClock.now()
            let request = RequestContext(method: method.map { String(cString: $0) } ?? "",
                                         path: url.map { String(cString: $0) } ?? "", startedAt: now)
            requestSlot.pointee = Unmanaged.passRetained(request).toOpaque()
            lock.withLock {
                inFlight += 1
                connectionContext?.deadline = now + timeoutNanoseconds
            }
            if let refusal = takeTargetRefusal(connectionContext) { return respond(connection, request, refusal, library: library) }
            if let length = library.lookupValue(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }) {
                let declared = Int(length) ?? Int.max
                if declared > configuration.maxBodySize {
                    return respond(connection, request, tooLarge(), library: library)
                }
                request.body.reserveCapacity(min(declared, 1 << 20))  // grown as bytes really arrive
            }
            return true
        }
        let request = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        if request.answered {
            size.pointee = 0
            return true
        }
        if size.pointee > 0 {
            let count = size.pointee
            size.pointee = 0
            if request.discarded > 0 {
                request.discarded += count
                return request.discarded <= configuration.maxBodySize
            }
            guard request.body.count + count <= configuration.maxBodySize else {
                // A chunked body past the limit. libmicrohttpd queues no response in the middle of
                // a body, so over plain HTTP the 413 is written to the socket here and the
                // connection closed, the rest unread. Over TLS the rest is read and dropped (up
                // to the limit again, then the connection is closed) and the 413 sent at its end.
                request.body = []
                if configuration.tls == nil, let fd = connectionContext?.fd, fd >= 0 {
                    writeDirectly(fd, tooLarge(), request, library: library, connection: connection)
                    return false
                }
                request.discarded = count
                return true
            }
            if let data { request.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count)) }
            return true
        }
        if request.discarded > 0 { return respond(connection, request, tooLarge(), library: library) }
        lock.withLock { connectionContext?.deadline = 0 }
        let httpRequest = HTTPRequest(method: request.method, path: request.path,
                                      query: values(connection, .GET_ARGUMENT_KIND, library).map {
                                          HTTPRequest.QueryItem(name: $0.0, value: $0.1)
                                      },
                                      headers: HTTPHeaders(values(connection, .HEADER_KIND, library).map {
                                          HTTPHeaders.Field(name: $0.0, value: $0.1)
                                      }),
                                      body: request.body,
                                      remoteAddress: ListeningSocket.numericHost(
                                          library.info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr))
        request.body = []
        let gated = !configuration.ungatedPathSuffixes.contains { httpRequest.path.hasSuffix($0) }
        guard !gated || enterHandlerSlot() else {
            let retry = configuration.retryAfterSeconds
            return respond(connection, request, .error(status: 503, code: "SERVICE_UNAVAILABLE",
                                                       reason: "the server is busy; retry after \(retry) s",
                                                       retryAfter: retry),
                           library: library, query: httpRequest.query)
        }
        let response = handler.handle(httpRequest)
        if gated { leaveHandlerSlot() }
        return respond(connection, request, response, library: library, query: httpRequest.query)
    }

    private func tooLarge() -> HTTPResponse {
        var response = HTTPResponse.error(status: 413, code: "LIMIT_EXCEEDED",
                                          reason: "the request body is larger than \(configuration.maxBodySize) bytes")
        response.headers.set("Connection", "close")
        return response
    }

    /// Queues `response` for `request` and logs it; false when libmicrohttpd refused it.
    private func respond(_ connection: OpaquePointer?, _ request: RequestContext, _ response: HTTPResponse,
                         library: LibMicroHTTPD, query: [HTTPRequest.QueryItem] = []) -> Bool {
        request.answered = true
        var body = response.body
        let made = body.withUnsafeMutableBytes {
            library.createResponse($0.count, $0.baseAddress, .RESPMEM_MUST_COPY)
        }
        guard let made else { return false }
        defer { library.destroyResponse(made) }
        for field in response.headers where !field.value.utf8.contains(where: { $0 == 10 || $0 == 13 }) {
            _ = library.addHeader(made, field.name, field.value)
        }
        if lock.withLock({ stopping }) { _ = library.addHeader(made, "Connection", "close") }
        let status = (100...999).contains(response.status) ? response.status : 500
        let queued = library.queueResponse(connection, UInt32(status), made) == MHD_Result.YES
        logAnswer(request, status: status, account: response.logAccount, query: query, library: library,
                  connection: connection)
        return queued
    }

    /// The request's one log line.
    private func logAnswer(_ request: RequestContext, status: Int, account: String?, query: [HTTPRequest.QueryItem],
                           library: LibMicroHTTPD, connection: OpaquePointer?) {
        guard let log else { return }
        let elapsed = Double(MonotonicClock.now() - request.startedAt) / 1_000_000
        let remote = ListeningSocket.numericHost(
            library.info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr)
        log(HTTPRequestLogEntry(method: request.method,
                                target: HTTPRequestLogEntry.target(path: request.path, query: query),
                                status: status, milliseconds: elapsed, account: account, remoteAddress: remote))
    }

    /// Sends `response` straight to the socket (plain HTTP only, outside libmicrohttpd, which is
    /// then told to close the connection) and logs it.
    private func writeDirectly(_ fd: Int32, _ response: HTTPResponse, _ request: RequestContext,
                               library: LibMicroHTTPD, connection: OpaquePointer?) {
        request.answered = true
        var head = "HTTP/1.1 \(response.status) \(response.status == 413 ? "Content Too Large" : "Error")\r\n"
        for field in response.headers where !field.value.utf8.contains(where: { $0 == 10 || $0 == 13 }) {
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\n\r\n"
        let bytes = Array(head.utf8) + response.body
        var offset = 0
        var waits = 0
        while offset < bytes.count && waits < 100 {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                offset += n
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, 10)
                waits += 1
            } else {
                break
            }
        }
        shutdown(fd, Int32(SHUT_WR))
        logAnswer(request, status: response.status, account: response.logAccount, query: [],
                  library: library, connection: connection)
    }

    /// Every (name, value) of one kind of the request (headers, query arguments), in order.
    private func values(_ connection: OpaquePointer?, _ kind: MHD_ValueKind, _ library: LibMicroHTTPD) -> [(String, String)] {
        let collector = PairCollector()
        let iterator: MHD_KeyValueIterator = { cls, _, key, value in
            guard let cls else { return MHD_Result.NO }
            Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue().pairs.append(
                (key.map { String(cString: $0) } ?? "", value.map { String(cString: $0) } ?? ""))
            return MHD_Result.YES
        }
        _ = withExtendedLifetime(collector) {
            library.connectionValues(connection, kind, iterator, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.pairs
    }

    /// Takes a handler slot, waiting in the queue if all are taken; false (answer 503) when the
    /// queue is full too.
    private func enterHandlerSlot() -> Bool {
        lock.withLock {
            if runningHandlers < configuration.maxConcurrentRequests {
                runningHandlers += 1
                return true
            }
            guard queuedHandlers < configuration.maxQueuedRequests else { return false }
            queuedHandlers += 1
            while runningHandlers >= configuration.maxConcurrentRequests { lock.wait() }
            queuedHandlers -= 1
            runningHandlers += 1
            return true
        }
    }

    private func leaveHandlerSlot() {
        lock.withLock {
            runningHandlers -= 1
            lock.broadcast()
        }
    }

    /// The watchdog: shuts down connections whose client missed its deadline (slow headers or
    /// body, even with bytes trickling in), until the server has stopped.
    func watch(every interval: UInt64) {
        lock.withLock {
            while !stopped {
                let now = MonotonicClock.now()
                for context in connections.values
                where context.deadline != 0 && context.deadline <= now && !context.shutDown && context.fd >= 0 {
                    context.shutDown = true
                    shutdown(context.fd, Int32(SHUT_RDWR))
                }
                lock.wait(until: now + interval)
            }
        }
    }
}
