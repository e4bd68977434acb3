import CloudSyncService
import CloudSyncCore

/// What identity keys and messages need from their caller: the cloud, the account acting, its
/// data key, the user directory and where this device keeps its pins. The command line's
/// `CloudSession` provides it; the library never sees the command line.
public protocol IdentityContext {
    /// The opened cloud service.
    var cloud: any CloudService { get }
    /// The account acting.
    var account: Account { get }
    /// The request for one database of the current container, as this device.
    func request(_ scope: DatabaseScope) -> DatabaseRequest
    /// The cloud's user directory; throws when the cloud offers none.
    func users() throws -> any UserDirectoryService
    /// The user a key finds, nil when the directory does not know it (or it hides from that key).
    func lookUpUser(_ key: UserLookupKey) throws -> DirectoryUser?
    /// The account's data key, unlocked (the private keys are sealed under it).
    func identityDataKey() throws -> [UInt8]
    /// This device's pin file for the current account and container (`KeyPins.pinsPath`).
    var keyPinsPath: String { get }
}
