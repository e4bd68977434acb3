/// Who may open one of the last connections of the table.
///
/// libmicrohttpd bounds the connections of one address (`maxConnectionsPerAddress`) and of the
/// server (`maxConnections`), but a few addresses that each stay within their bound can still
/// fill the table together, and then nobody else gets in. Once fewer than
/// `connectionsKeptForNewAddresses` connections are free, a connection is accepted only from an
/// address that holds fewer than `crowdedShareLimit` open ones.
extension HTTPServer {
    /// True when a new connection from `peer` (a numeric address) may enter the table now.
    func accepts(_ peer: String) -> Bool {
        let kept = configuration.connectionsKeptForNewAddresses
        guard kept > 0 else { return true }
        return lock.withLock {
            guard connections.count >= configuration.maxConnections - kept else { return true }
            var held = 0
            for context in connections.values where context.peer == peer {
                held += 1
                if held >= configuration.crowdedShareLimit {
                    crowdedRefusals += 1
                    return false
                }
            }
            return true
        }
    }
}
