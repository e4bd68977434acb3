import CloudSyncCore

/// Who asks the service for a container-wide act (schema import, deploy and reset; naming an
/// administrator), and what stands behind the asking.
public struct Caller: Sendable, Hashable {
    /// Why the service should believe the caller.
    public enum Standing: Sendable, Hashable {
        /// The caller opened the cloud's store itself (the embedded cloud's file, or PostgreSQL as
        /// its owner). Such a caller may claim a container that has no administrator yet: the
        /// first account that sets up a container's schema becomes its administrator.
        case holdsStore
        /// A credential `cloudsync serve` checked; `isAdmin` when it carries the administrator
        /// role (`token create --admin`), which administers every container of the server.
        case credential(isAdmin: Bool)
        /// A container API token (`ckAPIToken` alone): no user at all, allowed only what `_world`
        /// may do in the public database of `container`. The account is empty.
        case apiToken(container: String)
    }

    /// The account's login name.
    public var account: String
    public var standing: Standing

    public init(account: String, standing: Standing) {
        self.account = account
        self.standing = standing
    }

    /// A caller that opened the store itself as `account`.
    public static func holdingStore(_ account: String) -> Caller {
        Caller(account: account, standing: .holdsStore)
    }

    /// An API token's caller: nobody, reading `container`'s public database.
    public static func anonymous(container: String) -> Caller {
        Caller(account: "", standing: .apiToken(container: container))
    }

    /// The container an API token caller may read, or nil for a user.
    public var apiTokenContainer: String? {
        if case .apiToken(let container) = standing { return container }
        return nil
    }

    /// Whether the credential itself carries the administrator role.
    public var hasAdminRole: Bool {
        if case .credential(isAdmin: true) = standing { return true }
        return false
    }
}
