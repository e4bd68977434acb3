import CloudSyncService
import CloudSyncCore
import CloudSyncPostgres

/// The cloud in a PostgreSQL database (`--cloud postgres://user:pw@host:port/db`): the
/// service's rules are `StorageBackedCloud`'s, over `PostgresCloudStorage`. Devices on any machine
/// that reaches the server sync through it; listeners are woken with LISTEN/NOTIFY.
public final class PostgresCloud: StorageBackedCloud, @unchecked Sendable {
    /// Where it lives (the password masked in `description`).
    public let url: PostgresURL

    /// Connects to `url` (or shares this process's connections to it) and creates (or upgrades)
    /// the tables on first use. Errors: an invalid
    /// URL `invalidArguments`; unreachable `serviceUnavailable` (69); refused credentials
    /// `notAuthenticated` (77); a cloud of a newer format `badDatabase` (69).
    ///
    /// With `connections`, the cloud gets a pool of its own of that many connections, callers
    /// waiting at most `maxWait` seconds for one (default `StoreConnections.maxWait`), instead of
    /// the process's shared storage of `StoreConnections.limit`.
    public init(url text: String, clock: @escaping CloudClock = systemClock, connections: Int? = nil,
                maxWait: Double? = nil) throws(CloudError) {
        let url: PostgresURL
        do {
            url = try PostgresURL(text)
        } catch {
            throw CloudError(.invalidArguments, error.description)
        }
        self.url = url
        let storage = if let connections {
            try PostgresCloudStorage(url: url, connections: connections, maxWait: maxWait ?? StoreConnections.maxWait)
        } else {
            try PostgresCloudStorage.shared(url)
        }
        super.init(storage: storage, clock: clock)
    }

    /// How many statements this process's connections to the cloud have sent, each a round trip
    /// to the server (for tests and benchmarks: a modify call costs a few, not one per record).
    public var roundTrips: Int {
        guard let storage = storage as? PostgresCloudStorage else { return 0 }
        return storage.pool.roundTrips
    }

    /// PostgreSQL as `CloudLocator` opens it: `postgres://` and `postgresql://` URLs, registered
    /// at the composition root (the executable, tests); nothing loads libpq until such a URL is
    /// opened.
    public static let backend = CloudBackendRegistration(
        name: "postgres", form: .url(prefixes: ["postgres://", "postgresql://"]),
        acceptedForms: "postgres://USER@HOST/DB (or postgresql://)"
    ) { locator, request in
        try PostgresCloud(url: locator.url, clock: request.clock)
    }
}
