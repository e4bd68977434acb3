import CloudSyncCore

/// A user of the cloud.
public struct Account: Sendable, Hashable {
    /// The login name given on the command line (`--account alice`).
    public var name: String
    /// `_` followed by 32 hex digits, stable for the life of the cloud.
    public var userRecordName: String

    public init(name: String, userRecordName: String) {
        self.name = name
        self.userRecordName = userRecordName
    }
}

/// Which database a request addresses, and who is asking from which device.
public struct DatabaseRequest: Sendable, Hashable {
    public var container: String
    public var scope: DatabaseScope
    /// The caller's userRecordName.
    public var userRecordName: String
    /// The caller's device name, recorded in the system fields of what it saves.
    public var deviceID: String
    /// The environment whose data and schema the call works on (default development).
    public var environment: CloudEnvironment
    /// In the shared database: the userRecordName of the owner whose shared zone the call
    /// addresses (`--owner`). Record calls may name the owner in their zone IDs instead; calls
    /// on the shared database as a whole (its zone list, changes, subscriptions) take none.
    public var sharedOwner: String?

    public init(container: String, scope: DatabaseScope, userRecordName: String, deviceID: String,
                environment: CloudEnvironment = .development) {
        self.container = container
        self.scope = scope
        self.userRecordName = userRecordName
        self.deviceID = deviceID
        self.environment = environment
        self.sharedOwner = nil
    }

    /// A request naming the owner of the shared zones it addresses (see `sharedOwner`).
    public init(container: String, scope: DatabaseScope, userRecordName: String, deviceID: String,
                environment: CloudEnvironment, sharedOwner: String?) {
        self.init(container: container, scope: scope, userRecordName: userRecordName, deviceID: deviceID,
                  environment: environment)
        self.sharedOwner = sharedOwner
    }

    /// This request addressing the shared zones of `owner` (a real userRecordName; the
    /// current-user placeholder or an empty name leaves the request as it is).
    public func owned(by owner: String) -> DatabaseRequest {
        guard scope == .shared, !owner.isEmpty, owner != ZoneID.currentUserOwner else { return self }
        var copy = self
        copy.sharedOwner = owner
        return copy
    }

    /// The container key the storage files this environment's data under (see
    /// `CloudEnvironment.storageContainer`).
    public var storageContainer: String { environment.storageContainer(container) }

    /// The owner of the zones of this database: the caller for the private database, the
    /// default owner for the public one, the sharing owner (`sharedOwner`) in the shared one.
    public var zoneOwner: String {
        scope == .public ? ZoneID.currentUserOwner : (sharedOwner ?? userRecordName)
    }

    /// The ID of a zone of this database.
    public func zoneID(_ name: String) -> ZoneID { ZoneID(zoneName: name, ownerRecordName: zoneOwner) }
}
