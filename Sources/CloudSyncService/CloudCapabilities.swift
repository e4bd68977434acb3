import CloudSyncCore

/// What an opened cloud can do: the data calls every cloud answers, and the optional
/// capabilities (schema administration, sharing, the user directory, and the administration of
/// a storage this process holds). Asked of a cloud with `CloudService.capabilities` instead of
/// casting it, so that a wrapper (`RetryingCloud`, `FaultInjectingCloud`) forwards every
/// capability of the cloud it wraps and hides none.
public struct CloudCapabilities: Sendable {
    /// Zones, records, changes, assets, key-values and subscriptions: what every cloud answers
    /// (through the wrappers, when there are any).
    public var data: any CloudService
    /// Schema administration (`cloudsync schema`), nil when the cloud does not offer it.
    public var schema: (any SchemaService)?
    /// Zone sharing (`cloudsync share`, the shared zones of `store sync`), nil when not offered.
    public var sharing: (any SharingService)?
    /// Users finding each other (`cloudsync whoami`, `users/…`), nil when not offered.
    public var users: (any UserDirectoryService)?
    /// The service's rules over a storage held by this process (an embedded or PostgreSQL
    /// cloud): credentials, administrators, copy and check. Nil for a cloud reached over HTTP.
    public var admin: StorageBackedCloud?

    public init(data: any CloudService, schema: (any SchemaService)? = nil, sharing: (any SharingService)? = nil,
                users: (any UserDirectoryService)? = nil, admin: StorageBackedCloud? = nil) {
        self.data = data
        self.schema = schema
        self.sharing = sharing
        self.users = users
        self.admin = admin
    }

    /// These capabilities with the data calls answered by `wrapper` (a cloud that wraps the one
    /// these came from): what a wrapper returns as its own.
    public func forwarded(through wrapper: any CloudService) -> CloudCapabilities {
        var copy = self
        copy.data = wrapper
        return copy
    }
}
