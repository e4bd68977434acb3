import CloudSyncService
import CloudSyncCore

extension HTTPCloud {
    /// A server carries schema, sharing and the user directory over its extension endpoints; its
    /// storage is administered where it runs (`admin` is nil).
    public var capabilities: CloudCapabilities {
        CloudCapabilities(data: self, schema: self, sharing: self, users: self)
    }
}
