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

    /// Before a connection enters the table: see `HTTPServerConfiguration.connectionsKeptForNewAddresses`.
    static let acceptPolicyCallback: MHD_AcceptPolicyCallback = { cls, address, _ in
        guard let cls else { return MHD_Result.NO }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        return server.accepts(ListeningSocket.numericHost(address)) ? MHD_Result.YES : MHD_Result.NO
    }

    static let completedCallback: MHD_RequestCompletedCallback = { cls, connection, requestSlot, _ in
        guard let cls, let requestSlot, let raw = requestSlot.pointee else { return }
        requestSlot.pointee = nil
        let request = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        // On a kept-alive connection the next request's headers are due within the header timeout.
        let connectionContext = server.library?.info(connection, .CONNECTION_INFO_SOCKET_CONTEXT)?.pointee
            .socket_context.map { Unmanaged<ConnectionContext>.fromOpaque($0).takeUnretainedValue() }
        server.lock.withLock {
            server.inFlight -= 1
            server.bodyBytesHeld -= request.reserved
            request.reserved = 0
            connectionContext?.deadline = MonotonicClock.now() + server.headerTimeoutNanoseconds
            server.lock.broadcast()
        }
    }

    static let connectionCallback: MHD_NotifyConnectionCallback = { cls, connection, socketSlot, code in
        guard let cls, let socketSlot else { return }
        let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
        if code == .CONNECTION_NOTIFY_STARTED {
            let fd = server.library?.info(connection, .CONNECTION_INFO_CONNECTION_FD)?.pointee.connect_fd ?? -1
            let peer = ListeningSocket.numericHost(server.library?.info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr)
            let context = ConnectionContext(fd: fd, peer: peer, deadline: MonotonicClock.now() + server.headerTimeoutNanoseconds)
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
            request.acceptsGzip = Gzip.accepted(by: library.lookupValue(connection, .HEADER_KIND, "Accept-Encoding")
                .map { String(cString: $0) })
            lock.withLock {
                inFlight += 1
                connectionContext?.deadline = now + timeoutNanoseconds
            }
            if let refusal = takeTargetRefusal(connectionContext) { return respond(connection, request, answer(refusal), library: library) }
            var declared: Int?
            if let length = library.lookupValue(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }) {
                let size = Int(length) ?? Int.max
                if size > configuration.maxBodySize {
                    return respond(connection, request, tooLarge(), library: library)
                }
                declared = size
            }
            // Nothing of the body is read yet: the handler judges the credential from the head.
            let head = HTTPRequestHead(method: request.method, path: request.path,
                                       query: values(connection, .GET_ARGUMENT_KIND, library).map {
                                           HTTPRequest.QueryItem(name: $0.0, value: $0.1)
                                       },
                                       headers: HTTPHeaders(values(connection, .HEADER_KIND, library).map {
                                           HTTPHeaders.Field(name: $0.0, value: $0.1)
                                       }),
                                       remoteAddress: ListeningSocket.numericHost(
                                           library.info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr))
            switch handler.admission(head) {
            case .refused(var refusal):
                refusal.headers.set("Connection", "close")
                return respond(connection, request, refusal, library: library, query: head.query)
            case .admitted(let note):
                request.admissionNote = note
            }
            if let declared, declared > 0 {
                guard reserveBodyMemory(declared, for: request) else {
                    return respond(connection, request, bodyMemoryFull(), library: library, query: head.query)
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
            let refusal: HTTPResponse? = if request.body.count + count > configuration.maxBodySize {
                tooLarge()
            } else if request.body.count + count > request.reserved
                        && !reserveBodyMemory(request.body.count + count - request.reserved, for: request) {
                bodyMemoryFull()
            } else {
                nil
            }
            if let refusal {
                // A chunked body past a limit. libmicrohttpd queues no response in the middle of
                // a body, so over plain HTTP the refusal is written to the socket here and the
                // connection closed, the rest unread. Over TLS the rest is read and dropped (up
                // to the size limit, then the connection is closed) and the refusal sent at its end.
                request.body = []
                releaseBodyMemory(of: request)
                if configuration.tls == nil, let fd = connectionContext?.fd, fd >= 0 {
                    writeDirectly(fd, refusal, request, library: library, connection: connection)
                    return false
                }
                request.refusal = refusal
                request.discarded = count
                return true
            }
            if let data { request.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count)) }
            return true
        }
        if request.discarded > 0 { return respond(connection, request, request.refusal ?? tooLarge(), library: library) }
        lock.withLock { connectionContext?.deadline = 0 }
        if let coding = library.lookupValue(connection, .HEADER_KIND, "Content-Encoding").map({ String(cString: $0) }) {
            if let refusal = decodeBody(request, coding: coding) { return respond(connection, request, refusal, library: library) }
        }
        var httpRequest = HTTPRequest(method: request.method, path: request.path,
                                      query: values(connection, .GET_ARGUMENT_KIND, library).map {
                                          HTTPRequest.QueryItem(name: $0.0, value: $0.1)
                                      },
                                      headers: HTTPHeaders(values(connection, .HEADER_KIND, library).map {
                                          HTTPHeaders.Field(name: $0.0, value: $0.1)
                                      }),
                                      body: request.body,
                                      remoteAddress: ListeningSocket.numericHost(
                                          library.info(connection, .CONNECTION_INFO_CLIENT_ADDRESS)?.pointee.client_addr))
        httpRequest.admissionNote = request.admissionNote
        request.body = []
        request.admissionNote = nil
        let gated = !handler.isLongPoll(httpRequest)
        guard !gated || enterHandlerSlot() else {
            return respond(connection, request, answer(.busy(retryAfter: configuration.retryAfterSeconds)),
                           library: library, query: httpRequest.query)
        }
        guard gated || enterUngatedSlot() else {
            // The refused poller does not keep the connection.
            return respond(connection, request, answer(.tooManyLongPolls(retryAfter: configuration.retryAfterSeconds)),
                           library: library, query: httpRequest.query)
        }
        let response = handler.handle(httpRequest)
        if gated { leaveHandlerSlot() } else { leaveUngatedSlot() }
        return respond(connection, request, response, library: library, query: httpRequest.query)
    }

    /// Counts `count` more body bytes of `request` against `maxBodyMemory`; false (nothing
    /// counted) when they would pass it.
    private func reserveBodyMemory(_ count: Int, for request: RequestContext) -> Bool {
        lock.withLock {
            guard bodyBytesHeld + count <= configuration.maxBodyMemory else { return false }
            bodyBytesHeld += count
            request.reserved += count
            return true
        }
    }

    /// Gives back what `request` counted against `maxBodyMemory` (its body was dropped).
    private func releaseBodyMemory(of request: RequestContext) {
        lock.withLock {
            bodyBytesHeld -= request.reserved
            request.reserved = 0
        }
    }

    /// The answer to a body that would take the bodies in flight past `maxBodyMemory`.
    private func bodyMemoryFull() -> HTTPResponse {
        answer(.bodyMemoryFull(retryAfter: configuration.retryAfterSeconds))
    }

    /// The handler's wording of a refusal the server makes itself, with `Connection: close`
    /// when the server closes the connection after it.
    private func answer(_ refusal: HTTPRefusal) -> HTTPResponse {
        var response = handler.response(to: refusal)
        if refusal.closesConnection { response.headers.set("Connection", "close") }
        return response
    }

    /// Decodes the body of a request sent with `Content-Encoding: coding` in place: gzip is
    /// decompressed, and refused as too large as soon as the decompressed bytes pass
    /// `maxBodySize`; other codings are refused. Returns the refusal's answer, if any.
    private func decodeBody(_ request: RequestContext, coding: String) -> HTTPResponse? {
        switch coding.lowercased().filter({ $0 != " " && $0 != "\t" }) {
        case "", "identity":
            return nil
        case "gzip", "x-gzip":
            do {
                request.body = try Gzip.decompress(request.body, limit: configuration.maxBodySize)
                return nil
            } catch .tooLarge {
                return tooLarge(decompressed: true)
            } catch {
                return answer(.unreadableGzipBody)
            }
        default:
            return answer(.unsupportedContentEncoding(coding))
        }
    }

    private func tooLarge(decompressed: Bool = false) -> HTTPResponse {
        answer(.bodyTooLarge(limit: configuration.maxBodySize, decompressed: decompressed))
    }

    /// Queues `response` for `request` and logs it; false when libmicrohttpd refused it.
    private func respond(_ connection: OpaquePointer?, _ request: RequestContext, _ response: HTTPResponse,
                         library: LibMicroHTTPD, query: [HTTPRequest.QueryItem] = []) -> Bool {
        request.answered = true
        let response = request.acceptsGzip ? Gzip.encode(response) : response
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
        let phrase = switch response.status {
        case 413: "Content Too Large"
        case 503: "Service Unavailable"
        default: "Error"
        }
        var head = "HTTP/1.1 \(response.status) \(phrase)\r\n"
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

    /// Takes a slot for an ungated request (a long poll); false (answer 503) when they already
    /// hold every connection but the reserved ones.
    private func enterUngatedSlot() -> Bool {
        lock.withLock {
            guard ungatedRunning < configuration.maxConnections - configuration.reservedConnections else { return false }
            ungatedRunning += 1
            return true
        }
    }

    private func leaveUngatedSlot() {
        lock.withLock { ungatedRunning -= 1 }
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
