import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncConsole
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebServer
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync serve`: the cloud of `--cloud` on the network, in the CloudKit Web Services
/// protocol, in the foreground until SIGTERM or SIGINT.
public enum ServeCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve the cloud over HTTP in the CloudKit Web Services protocol.",
        discussion: """
            Runs in the foreground and answers /database/1/{container}/{environment}/{database}/… \
            for the cloud of --cloud (sqlite:// or postgres://), so that other machines use it with \
            --cloud http://HOST:PORT. It prints the address it listens on (port 0 picks a free \
            one), then one log line per request: method, path, account, status, milliseconds, \
            peer. Asset upload and download URLs are absolute (--public-url, else the request's \
            Host) and carry a signed grant (upload 15 minutes, download 1 hour) that works without \
            a credential. Requests authenticate with a token of 'cloudsync token create' (Authorization: \
            Bearer TOKEN or ?ckWebAuthToken=TOKEN) or a server-to-server key of 'cloudsync token \
            add-key'; a request whose credential is missing or unknown is refused 401 from its \
            headers, its body unread, and its connection closed. Long polls are limited to 8 per \
            account and device (32 per account; past it 429 THROTTLED). SIGTERM or SIGINT stops accepting, lets requests in flight finish (at most \
            10 s) and exits 0. \
            The console, a web page that browses and edits the data, the schema, subscriptions, \
            shares and (for administrators) tokens and server figures, is at /console/ of the \
            server (open URL/console/#token=TOKEN to sign in). A token made with 'token create \
            --admin' carries the administrator role: schema import, deploy and reset of every \
            container, the console's Operations page, POST /admin/1/credentials/… and GET /metrics \
            (Prometheus text: requests, errors and latency by endpoint, connections, records and \
            bytes per container); any other credential gets 403 ACCESS_DENIED there.
            """,
        options: [OptionSpec("listen", value: "HOST:PORT", help: "Address to listen on (default 127.0.0.1:8080; port 0 picks one)."),
                  OptionSpec("tls-cert", value: "FILE", help: "Serve HTTPS with this PEM certificate (with --tls-key).", completion: .file),
                  OptionSpec("tls-key", value: "FILE", help: "The PEM private key of --tls-cert.", completion: .file),
                  OptionSpec("max-connections", value: "N", help: "Connections served at once (default 256)."),
                  OptionSpec("max-requests", value: "N",
                             help: "Requests worked on at once, below --max-connections (default 32, at most a quarter of the connections); twice as many more wait, the rest get 503 with Retry-After. Long polls are not counted."),
                  OptionSpec("max-connections-per-address", value: "N",
                             help: "Connections from one address at once (default 32; 0 for no limit). Once three quarters of --max-connections are open, an address holding two or more gets no new one, so a few addresses cannot fill the server. Long polls may hold at most three quarters of --max-connections."),
                  OptionSpec("header-timeout", value: "SECONDS",
                             help: "Close a connection whose request headers are not all in within SECONDS (default 10), idle kept-alive ones too."),
                  OptionSpec("max-body-memory", value: "BYTES",
                             help: "Request bodies held at once, over all connections (default 256M; K, M, G suffixes); past it 503 with Retry-After."),
                  OptionSpec("quota-bytes", value: "BYTES",
                             help: "Storage per account: record fields and assets (default 10G; K, M, G suffixes; 0 for none); past it QUOTA_EXCEEDED (exit 65), reads and deletes still work."),
                  OptionSpec("db-connections", value: "N",
                             help: "Connections to a postgres:// cloud, shared by the requests (default twice the cores); a request that finds them all busy for 2 s gets 503 with Retry-After."),
                  OptionSpec("read-replica", value: "URL",
                             help: "A streaming replica (postgres://…) of the postgres:// --cloud, repeatable: read-only calls (records lookup, query and changes, zones list, lookup and changes, database changes) of a client that sends back the X-CloudSync-Position of its replies (or a change token, which carries it) go to a replica that has replayed that far, others to the primary; a replica that is behind, down or failing leaves the call to the primary (one unreachable at start is a warning).",
                             repeatable: true),
                  OptionSpec("max-poll-wait", value: "SECONDS",
                             help: "The longest a notifications/poll is held waiting before it answers with no notification (default 60, the protocol's most; 1 to 60). Behind a load balancer, keep it below the balancer's response timeout, so that no waiting poll is cut (scripts/cluster does)."),
                  OptionSpec("public-url", value: "URL",
                             help: "The http(s) URL clients reach this server at (a proxy in front), for the asset upload and download URLs and the sign-in page a 421 names (default: the request's Host and the server's scheme)."),
                  OptionSpec("log", value: "FILE", help: "Append the request log to FILE (- for stderr, the default).",
                             completion: .file)],
        examples: [Example("cloudsync serve --listen 0.0.0.0:8080 --cloud sqlite:///srv/cloud.sqlite", "Serve a cloud file."),
                   Example("cloudsync serve --listen 127.0.0.1:0", "Serve on a free port (printed on start)."),
                   Example("cloudsync serve --public-url https://cloud.example.com", "Behind a proxy: the URLs handed out name the proxy.")],
        jsonOutput: ServeJSONOutput.serve,
        run: { context, arguments in try run(context, arguments) })

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        // Before any thread starts, so that every thread inherits the blocked signals.
        let signals = TerminationSignals()
        let (host, port) = try parseListen(arguments.value("listen") ?? "127.0.0.1:8080")
        var configuration = HTTPServerConfiguration(host: host, port: port, maxBodySize: WebServicesHandler.maxJSONBodyBytes)
        if let text = arguments.value("max-connections") {
            guard let count = Int(text), count >= 1, count <= 100_000 else {
                throw CLIError.usage("--max-connections must be a number from 1 to 100000, not '\(text)'")
            }
            configuration.maxConnections = count
        }
        try limitRequests(&configuration, arguments.value("max-requests"))
        try ServeLimitArguments.apply(&configuration, arguments)
        let maxPollWait = try ServeLimitArguments.maxPollWait(arguments.value("max-poll-wait"))
        switch (arguments.value("tls-cert"), arguments.value("tls-key")) {
        case (nil, nil): break
        case (let cert?, let key?): configuration.tls = .init(certificatePath: cert, privateKeyPath: key)
        default: throw CLIError.usage("give --tls-cert and --tls-key together")
        }
        StoreConnections.limit = try databaseConnections(arguments.value("db-connections"))
        let service = try CredentialStore.service(context)
        service.setQuota(bytes: try ServeLimitArguments.quota(arguments.value("quota-bytes")))
        // Subscriptions are evaluated after the writer's caller is answered (issue 25, item 4).
        service.setPendingDeliveryMode(.background)
        let log = try RequestLog(path: arguments.value("log") ?? "-")
        let cloud = try faultInjected(service, context)
        let scheme = configuration.tls == nil ? "http" : "https"
        let grants = AssetGrants(service: service, publicURL: try publicURL(arguments.value("public-url")), scheme: scheme)
        let authenticator = AssetGrantAuthenticator(base: StoredCredentialAuthenticator(service: service), grants: grants)
        let warnings = try RequestLog(path: "-")
        let replicas = try ServeReplicas.router(arguments.values("read-replica"), primary: service, connections: StoreConnections.limit) { line in
            warnings.write("warning: " + line)
            if arguments.value("log").map({ $0 != "-" }) ?? false { log.write("warning: " + line) }
        }
        let webServices = WebServicesHTTPHandler(handler: WebServicesHandler(cloudFor: { _ in cloud }, scheme: scheme, assetGrants: grants,
                                                                             replicas: replicas,
                                                                             maxPollSeconds: maxPollWait),
                                                 authenticator: authenticator)
        // The console (/console/), GET /metrics and the administrator's /admin/1/… around the Web Services.
        let metrics = ServerMetrics(started: Double(systemClock()) / 1000)
        let gauges = ServerGauges()
        var replicaReads: (@Sendable () -> PrometheusText.ReplicaReads)?
        if let replicas { replicaReads = { PrometheusText.ReplicaReads(replicas.figures) } }
        let handler = ConsoleHTTPHandler(base: webServices, authenticator: authenticator, operations: OperationsEndpoints(service: service),
                                         metrics: metrics, gauges: { gauges.read() },
                                         replicaReads: replicaReads)
        let server = HTTPServer(configuration: configuration, handler: handler, log: { entry in
            log.write(entry.line)
            metrics.record(entry)
        })
        gauges.attach(server)
        do {
            try server.start()
        } catch {
            throw CLIError.unavailable("cannot serve on \(host):\(port): \(error.description)")
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let url = "\(scheme)://\(shownHost):\(server.boundPort ?? port)"
        if context.output.isJSON {
            // The cloud as given, but never a PostgreSQL password (stdout may land in a log).
            let locator = try CloudLocator(parsing: context.settings.cloudURL)
            let shownCloud = if locator.isEmbedded { context.settings.cloudURL } else { locator.displayName }
            context.output.json(.object([("url", .string(url)), ("cloud", .string(shownCloud))]))
        } else {
            context.output.line("listening on \(url)")
        }
        context.output.flush()
        let signal = signals.stopOnSignal(server, grace: .seconds(10))
        log.write("stopped on signal \(signal)")
        if let grouping = service.storage.storageCapabilities.writeGrouping { log.write(grouping.writeGroupFigures.line) }
        if let replicas { log.write(replicas.figures.line) }
    }

    /// The cloud the requests are answered from: `service`, or (for tests of clients against a
    /// failing server) wrapped to fail data calls as `CLOUDSYNC_FAULTS` plans, across all requests,
    /// logging calls to `CLOUDSYNC_CALL_LOG`. Credentials are always checked against `service`.
    /// The handler gate below the connection limit, so that overload is answered 503 with
    /// Retry-After instead of piling up: `--max-requests` (default 32, at most a quarter of the
    /// connections) run, twice as many wait (never more than the connections left), and long
    /// polls (`notifications/poll`: `WebServicesHTTPHandler.isLongPoll`) skip the gate.
    static func limitRequests(_ configuration: inout HTTPServerConfiguration, _ text: String?) throws {
        let connections = configuration.maxConnections
        var running = max(1, min(32, connections / 4))
        if let text {
            guard let count = Int(text), count >= 1, count < max(2, connections) else {
                throw CLIError.usage("--max-requests must be a number from 1 to \(max(1, connections - 1)) (below --max-connections), not '\(text)'")
            }
            running = count
        }
        configuration.maxConcurrentRequests = running
        configuration.maxQueuedRequests = max(0, min(2 * running, connections - running - 1))
    }

    /// `--db-connections`: 1 to 1000, default twice the cores online.
    static func databaseConnections(_ text: String?) throws -> Int {
        guard let text else { return max(2, 2 * Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
        guard let count = Int(text), count >= 1, count <= 1000 else {
            throw CLIError.usage("--db-connections must be a number from 1 to 1000, not '\(text)'")
        }
        return count
    }

    static func faultInjected(_ service: StorageBackedCloud, _ context: CommandContext) throws -> any CloudService {
        let faults = context.environment["CLOUDSYNC_FAULTS"] ?? ""
        let callLog = context.environment["CLOUDSYNC_CALL_LOG"].flatMap { $0.isEmpty ? nil : $0 }
        let delayText = context.environment["CLOUDSYNC_FAULT_DELAY_MS"] ?? ""
        guard !faults.isEmpty || callLog != nil || !delayText.isEmpty else { return service }
        guard let delay = delayText.isEmpty ? 0 : Int(delayText), delay >= 0, delay <= 60_000 else {
            throw CLIError.setting("CLOUDSYNC_FAULT_DELAY_MS must be milliseconds from 0 to 60000, not '\(delayText)'")
        }
        let plan: FaultPlan
        do { plan = try FaultPlan(parsing: faults) } catch { throw CLIError.usage(error.reason) }
        return FaultInjectingCloud(wrapping: service, plan: plan, callLog: callLog, delay: Double(delay) / 1000)
    }

    /// `--public-url`: an http or https URL with a host and nothing after its path.
    static func publicURL(_ text: String?) throws -> String? {
        guard let text else { return nil }
        let rest = text.hasPrefix("https://") ? text.dropFirst(8) : text.hasPrefix("http://") ? text.dropFirst(7) : nil
        guard let rest, let first = rest.first, first != "/", !text.contains(where: { $0 == "?" || $0 == "#" || $0 == " " }) else {
            throw CLIError.usage("--public-url takes http://HOST[:PORT][/PATH] or https://…, not '\(text)'")
        }
        return text
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (all interfaces).
    static func parseListen(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":") else {
            throw CLIError.usage("--listen takes HOST:PORT, not '\(text)'")
        }
        var host = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard let port = UInt16(portText) else {
            throw CLIError.usage("--listen '\(text)': the port must be a number from 0 to 65535")
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.isEmpty { host = "0.0.0.0" }
        return (host, port)
    }
}
