import CloudSyncCore
import Synchronization

/// A credential that a request was admitted on from this process's cache
/// (`StorageBackedCloud.cachedTokenCredential`), not yet confirmed in the store: the write
/// transaction that works for the request confirms it (`CloudStorageTransaction.expectCredentialInForce`),
/// so that a revocation committed before that transaction refuses the request, and a storage
/// whose every statement is a network round trip sends the check with the transaction's first
/// reads instead of on its own. What no write confirmed is checked before the request is
/// answered (`WebServicesHTTPHandler`).
///
/// Bound for the request's work with `CredentialConfirmation.$current.withValue(_:operation:)`
/// (a task-local value: on the request's thread); a call that writes reads it on that thread
/// and carries it into its transaction, which may run on another (a group commit's lane).
public final class CredentialConfirmation: Sendable {
    /// The stored credential's ID.
    public let credentialID: String
    private let state = Atomic<Bool>(false)

    /// The credential (its ID) to confirm.
    public init(credentialID: String) {
        self.credentialID = credentialID
    }

    /// Whether a transaction found the credential in force.
    public var isConfirmed: Bool { state.load(ordering: .acquiring) }

    /// Notes that a transaction found the credential in force.
    func confirm() { state.store(true, ordering: .releasing) }

    /// Forgets a confirmation as the write runs (again): a run that confirmed and was rolled
    /// back (a group's first run before its savepoints, a transaction retried after a deadlock)
    /// confirms nothing, and a rerun refused by the check leaves the request to be looked up
    /// (and answered the 401 refusal), not answered with the write's own error.
    func reset() { state.store(false, ordering: .releasing) }

    /// The confirmation the current request owes, if it was admitted from the cache.
    @TaskLocal public static var current: CredentialConfirmation?

    /// Throws `notAuthenticated` unless `row` (the stored row of the credential `id`, nil when
    /// there is none) is in force: a credential revoked or removed since it was cached. The
    /// request is then answered as one presenting a revoked credential.
    public static func requireInForce(_ row: CredentialRow?, id: String) throws(CloudError) {
        guard let row, row.revoked == nil else {
            throw CloudError(.notAuthenticated, "the credential \(id) is no longer in force")
        }
    }
}
