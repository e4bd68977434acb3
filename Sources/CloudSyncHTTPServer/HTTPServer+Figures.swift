extension HTTPServer {
    /// Client connections open now (served, idle kept-alive or waiting), for the server's figures.
    public var connectionsOpen: Int {
        lock.withLock { connections.count }
    }
}
