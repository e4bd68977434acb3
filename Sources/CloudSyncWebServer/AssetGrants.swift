import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol
import Synchronization

/// How `cloudsync serve` hands out asset URLs: absolute (from `--public-url`, else the request's
/// `Host` and the server's scheme), each with a signed `AssetGrant` so that it works without a
/// CloudKit credential. Upload grants last 15 minutes, download grants 1 hour (a downloadURL is
/// fetched again with its record after that).
public final class AssetGrants: Sendable {
    /// The query parameter that carries a grant.
    public static let parameter = "ckAssetGrant"
    /// How long an upload URL works (ms).
    public static let uploadLifetime: Int64 = 15 * 60 * 1000
    /// How long a download URL works (ms).
    public static let downloadLifetime: Int64 = 60 * 60 * 1000

    let loadSecret: @Sendable () throws(CloudError) -> String
    let cachedKey = Mutex<[UInt8]?>(nil)
    let publicURL: String?
    let scheme: String
    let clock: @Sendable () -> Int64

    /// `secret` reads the store's secret (once; it never changes); `publicURL` (without a
    /// trailing slash) overrides the `Host` header; `scheme` is the server's (`http`/`https`).
    public init(secret: @escaping @Sendable () throws(CloudError) -> String, publicURL: String? = nil, scheme: String = "http",
                clock: @escaping @Sendable () -> Int64 = systemClock) {
        loadSecret = secret
        var url = publicURL
        while url?.hasSuffix("/") == true { url?.removeLast() }
        self.publicURL = url
        self.scheme = scheme
        self.clock = clock
    }

    /// The grants of `service`'s store.
    public convenience init(service: StorageBackedCloud, publicURL: String? = nil, scheme: String = "http") {
        self.init(secret: { () throws(CloudError) in try service.assetGrantSecret() }, publicURL: publicURL, scheme: scheme)
    }

    func key() throws(CloudError) -> [UInt8] {
        if let key = cachedKey.withLock({ $0 }) { return key }
        let key = Array(try loadSecret().utf8)
        cachedKey.withLock { $0 = key }
        return key
    }

    /// The signed text of `grant`, ending `lifetime` ms from now.
    func sign(_ grant: AssetGrant, lifetime: Int64) throws(CloudError) -> String {
        var grant = grant
        grant.expires = clock() + lifetime
        return grant.token(key: try key())
    }

    /// The scheme and authority URLs start with: `--public-url`, else `scheme://Host`; empty
    /// (path-only URLs) for a request without a usable `Host`.
    func base(host: String?) -> String {
        Self.base(publicURL: publicURL, scheme: scheme, host: host)
    }

    /// `publicURL`, else `scheme://host` when `host` is a plausible authority, else empty.
    static func base(publicURL: String?, scheme: String, host: String?) -> String {
        if let publicURL { return publicURL }
        guard let host, !host.isEmpty, host.utf8.count <= 255,
              host.utf8.allSatisfy({ $0 > 32 && $0 < 127 && !"/\\@?#\"<>".utf8.contains($0) }) else { return "" }
        return scheme + "://" + host
    }

    /// The grant a request carries, checked against its path and query: signed by this store,
    /// not expired, for this endpoint, container, environment and database, and (downloads)
    /// for exactly the asset the query names. Throws only when the secret cannot be read.
    public func check(path: String, query: [(String, String)]) throws(CloudError) -> Result<AssetGrant, AssetGrantRefusal> {
        guard let token = query.first(where: { $0.0 == Self.parameter })?.1 else { return .failure(.malformed) }
        let grant: AssetGrant
        switch AssetGrant.verified(token, key: try key()) {
        case .success(let verified): grant = verified
        case .failure(let refusal): return .failure(refusal)
        }
        guard grant.expires >= clock() else { return .failure(.expired) }
        guard let parsed = try? WebServicesPath.parse(path), parsed.container == grant.container,
              parsed.environment.rawValue == grant.environment, parsed.scope.rawValue == grant.scope,
              parsed.endpoint == (grant.kind == .upload ? .assetsData : .assetsDownload) else { return .failure(.notThisRequest) }
        if grant.kind == .download {
            func value(_ name: String) -> String { query.first { $0.0 == name }?.1 ?? "" }
            guard value("fileChecksum") == grant.checksum, value("size") == String(grant.size), value("zoneName") == grant.zoneName,
                  value("recordName") == grant.recordName, value(Self.ownerParameter) == grant.owner else {
                return .failure(.notThisRequest)
            }
        }
        return .success(grant)
    }

    /// The query parameter that names a shared zone's owner on a download URL (the
    /// `X-CloudSync-Shared-Owner` header's stand-in, bound by the grant).
    public static let ownerParameter = "ownerRecordName"
}
