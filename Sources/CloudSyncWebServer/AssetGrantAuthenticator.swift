import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// An authenticator that also accepts asset grants (`?ckAssetGrant=…`, `AssetGrants`): a request
/// that carries one is judged by the grant alone, as strictly as a token, both in the pre-check
/// (before its body is read) and in the full check; it acts as the grant's account, for the
/// one endpoint and asset the grant names. Every other request goes to `base`.
public struct AssetGrantAuthenticator: WebServicesAuthenticator {
    let base: any WebServicesAuthenticator
    let grants: AssetGrants

    /// Judges grants with `grants`, every other credential with `base`.
    public init(base: any WebServicesAuthenticator, grants: AssetGrants) {
        self.base = base
        self.grants = grants
    }

    static func carriesGrant(_ query: [(String, String)]) -> Bool {
        query.contains { $0.0 == AssetGrants.parameter }
    }

    public func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                       body: [UInt8]) throws(CloudError) -> Caller? {
        try caller(method: method, path: path, query: query, headers: headers, body: body, prechecked: nil)
    }

    public func caller(method: String, path: String, query: [(String, String)], headers: [(String, String)],
                       body: [UInt8], prechecked: PrecheckedCredential?) throws(CloudError) -> Caller? {
        guard Self.carriesGrant(query) else {
            return try base.caller(method: method, path: path, query: query, headers: headers, body: body, prechecked: prechecked)
        }
        let checked: Result<AssetGrant, AssetGrantRefusal>
        do {
            checked = try grants.check(path: path, query: query)
        } catch {
            throw CloudError(.serviceUnavailable, "the asset grant cannot be checked now (\(error.reason)); try again later",
                             retryAfter: StoredCredentialAuthenticator.storeRetryAfter)
        }
        guard case .success(let grant) = checked else { return nil }
        return Caller(account: grant.account, standing: .credential(isAdmin: false))
    }

    public func confirm(_ credential: PrecheckedCredential) throws(CloudError) -> CredentialRefusal? {
        try base.confirm(credential)
    }

    public func admission(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialAdmission {
        guard Self.carriesGrant(query) else { return base.admission(path: path, query: query, headers: headers) }
        return precheck(path: path, query: query, headers: headers).map(CredentialAdmission.refused) ?? .admitted(nil)
    }

    public func precheck(path: String, query: [(String, String)], headers: [(String, String)]) -> CredentialRefusal? {
        guard Self.carriesGrant(query) else { return base.precheck(path: path, query: query, headers: headers) }
        do {
            if case .failure(let refusal) = try grants.check(path: path, query: query) { return .assetGrant(refusal) }
            return nil
        } catch {
            return nil  // the store cannot be read now: the full check answers 503
        }
    }
}
