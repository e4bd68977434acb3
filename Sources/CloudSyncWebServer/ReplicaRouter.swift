import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol
import Synchronization

/// Where `serve --read-replica` answers each call (issue 28): read-only calls from a streaming
/// replica that has replayed at least as far as the caller has seen, everything else from the
/// primary.
///
/// The guarantee: a caller never reads older data than it has seen. Every reply carries
/// `X-CloudSync-Position`, the primary's WAL position at or after everything the reply reflects
/// (from the primary: its insert position after the call, so after a write's commit; from a
/// replica: the replica's replay position after the read), never below what the call carried.
/// Every change token handed out carries that position too (`PositionedToken`: `TOKEN.HEX`).
/// A call is read from a replica only when it carries a position (the header, which `HTTPCloud`
/// sends back: the highest it has seen, or its change token's) and the replica has replayed at
/// least that far (`pg_last_wal_replay_lsn()`); a call carrying none is answered by the primary. A replica
/// that is behind, busy, down, or fails mid-call leaves the call to the primary (the client
/// sees no error); a failed replica is tried again after a backoff (`ReplicaSlot`).
public final class ReplicaRouter: Sendable {
    /// What the replicas served since the start: `GET /metrics` and the serve log show it.
    public struct Figures: Sendable, Equatable {
        /// Read-only calls answered by a replica.
        public var replicaReads = 0
        /// Read-only calls answered by the primary (no position, replicas behind or failed).
        public var primaryReads = 0
        /// Read-only calls with a position that no replica had replayed yet.
        public var behind = 0
        /// Calls a replica failed, answered again by the primary.
        public var failures = 0

        /// The serve log's line.
        public var line: String {
            let reads = replicaReads + primaryReads
            return "read replicas served \(replicaReads) of \(reads) reads (\(behind) behind, \(failures) failed over to the primary)"
        }
    }

    let primaryPosition: @Sendable () throws(CloudError) -> UInt64
    let slots: [ReplicaSlot]
    let next = Atomic<Int>(0)
    let counts = Mutex(Figures())

    /// Opens every replica now: one that cannot be opened is logged (one line) and tried again
    /// later, the primary answering meanwhile. One that cannot be opened because it has not
    /// replayed the primary's tables yet (its replay position is below the primary's position now,
    /// after the primary made them) is not logged: it is behind, and tried again shortly.
    public init(primaryPosition: @escaping @Sendable () throws(CloudError) -> UInt64, replicas: [ReadReplica],
                log: @escaping @Sendable (String) -> Void) {
        self.primaryPosition = primaryPosition
        let tablesAt = (try? primaryPosition()) ?? 0
        slots = replicas.map { ReplicaSlot($0, tablesAt: tablesAt, log: log) }
        for slot in slots { slot.connect() }
    }

    /// The figures so far.
    public var figures: Figures { counts.withLock { $0 } }

    /// Whether a replica may answer `endpoint`: the calls that only read.
    public static func readsOnly(_ endpoint: WebServicesEndpoint) -> Bool {
        switch endpoint {
        case .recordsLookup, .recordsQuery, .recordsChanges, .zonesList, .zonesLookup, .zonesChanges, .changesDatabase: true
        default: false
        }
    }

    /// Answers one call: `call` run on a replica's cloud or on `primary`, its reply given the
    /// position header. Errors of the primary's answer are the call's.
    public func answer(_ endpoint: WebServicesEndpoint, carried header: ReadPosition?, body: [UInt8] = [], primary: any CloudService,
                       _ call: (any CloudService) throws(CloudError) -> WebServicesResponse) throws(CloudError) -> WebServicesResponse {
        let readsOnly = Self.readsOnly(endpoint)
        // A change token handed out here carries the position of its reply.
        let token = Self.takesToken(endpoint) ? PositionedToken.position(inBody: body) : nil
        let carried = [header, token].compactMap { $0 }.max()
        if readsOnly, let carried, carried.offset > 0, !slots.isEmpty {
            if let answer = fromReplica(carried, endpoint, call) { return answer }
        }
        var response = try call(primary)
        if readsOnly { counts.withLock { $0.primaryReads += 1 } }
        let position = (try? primaryPosition()).map(ReadPosition.init(offset:))
        if let shown = [position, carried].compactMap({ $0 }).max() { stamp(&response, shown, endpoint) }
        return response
    }

    /// The answer of the first replica (in turn) that has replayed `carried`, or nil.
    private func fromReplica(_ carried: ReadPosition, _ endpoint: WebServicesEndpoint,
                             _ call: (any CloudService) throws(CloudError) -> WebServicesResponse) -> WebServicesResponse? {
        let first = next.add(1, ordering: .relaxed).oldValue
        for index in 0..<slots.count {
            let slot = slots[(first + index) % slots.count]
            guard let service = slot.lease(atLeast: carried.offset) else { continue }
            do {
                var response = try call(service)
                // After the read: at or after the snapshot it read.
                let replayed = try slot.replayed(service)
                stamp(&response, max(carried, ReadPosition(offset: replayed)), endpoint)
                counts.withLock { $0.replicaReads += 1 }
                return response
            } catch {
                if Self.isReplicaFailure(error) { slot.failed(error) }
                counts.withLock { $0.failures += 1 }
                return nil
            }
        }
        counts.withLock { $0.behind += 1 }
        return nil
    }

    /// A failure of the replica (unreachable, lost, busy, a query cancelled by replay, a write
    /// a replica refuses): it is left alone for a backoff. Any other error is retried on the primary too rather than an answer about the data, which the primary gives again.
    static func isReplicaFailure(_ error: CloudError) -> Bool {
        switch error.code {
        case .serviceUnavailable, .internalError, .networkUnavailable, .networkFailure, .badDatabase: true
        default: false
        }
    }

    /// The calls whose request may hold a change token.
    static func takesToken(_ endpoint: WebServicesEndpoint) -> Bool {
        [.recordsChanges, .zonesChanges, .changesDatabase].contains(endpoint)
    }

    /// The calls whose reply may hold change tokens.
    static func givesTokens(_ endpoint: WebServicesEndpoint) -> Bool {
        [.recordsChanges, .zonesChanges, .changesDatabase, .zonesList, .zonesLookup, .zonesModify].contains(endpoint)
    }

    /// Gives the reply its position: the header, and the suffix of each change token in it.
    private func stamp(_ response: inout WebServicesResponse, _ position: ReadPosition, _ endpoint: WebServicesEndpoint) {
        response.headers.removeAll { $0.0.lowercased() == WebServicesHeader.position.lowercased() }
        response.headers.append((WebServicesHeader.position, position.text))
        if response.status == 200, Self.givesTokens(endpoint) { response.body = PositionedToken.stamping(response.body, with: position) }
    }
}
