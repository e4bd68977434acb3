import CloudSyncCore

/// Zone sharing (issue 18), CKShare's model: an owner shares a zone of their private database,
/// invites accounts with a permission, and each participant who accepts finds the zone in their
/// shared database. `StorageBackedCloud` holds the rules for every backend; `HTTPCloud` carries the
/// calls to `cloudsync serve` (the `shares/…` extension endpoints).
///
/// Owner calls take the owner's private-database request; participant calls (`acceptShare`,
/// `leaveShare`, `acceptedShares`) take the participant's shared-database request.
public protocol SharingService: AnyObject, Sendable {
    /// Makes the zone's share, or updates its title and public permission (`nil` keeps them).
    /// Writes the `cloudkit.share` record in the zone. Returns the share.
    func saveShare(zoneName: String, title: String?, publicPermission: SharePermission?,
                   in request: DatabaseRequest) throws(CloudError) -> Share
    /// Invites accounts (login names; created on first use, as `account(named:)` does), or
    /// changes the permission of those already invited.
    func addParticipants(_ accounts: [String], permission: SharePermission, zoneName: String,
                         in request: DatabaseRequest) throws(CloudError) -> Share
    /// Removes participants: the zone leaves their shared database.
    func removeParticipants(_ accounts: [String], zoneName: String, in request: DatabaseRequest) throws(CloudError) -> Share
    /// Stops sharing the zone: every participant loses it, the share record is deleted.
    func deleteShare(zoneName: String, in request: DatabaseRequest) throws(CloudError)
    /// The shares of the caller's zones (`zoneName` nil: all of them).
    func ownedShares(zoneName: String?, in request: DatabaseRequest) throws(CloudError) -> [Share]

    /// Accepts the share of `url` as the caller: invited accounts at their permission, anyone
    /// at the public permission; others get `permissionFailure`, and so does a revoked URL.
    func acceptShare(url: String, in request: DatabaseRequest) throws(CloudError) -> Share
    /// Leaves the share of zone `zoneName` of `request.sharedOwner`.
    func leaveShare(zoneName: String, in request: DatabaseRequest) throws(CloudError)
    /// The shares the caller accepted (`zoneName` nil: all of them).
    func acceptedShares(zoneName: String?, in request: DatabaseRequest) throws(CloudError) -> [Share]
    /// The userRecordName of account `name` as the caller of `request` may learn it: how a
    /// participant names an owner by login, and an owner a participant. Nothing is created. As
    /// CloudKit's user discovery is opt-in, an account is named only to the accounts it has a
    /// share with (either way, invited or accepted, in the request's container) and to itself;
    /// to anyone else it is nil, exactly as an account that does not exist, so the answer never
    /// tells whether a login exists.
    func userRecordName(ofAccount name: String, in request: DatabaseRequest) throws(CloudError) -> String?
}
