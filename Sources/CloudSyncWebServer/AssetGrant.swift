import CloudSyncCore
import CloudSyncCrypto
import CloudSyncWebProtocol

/// A signed permission to use one asset URL without a CloudKit credential, as Apple's upload
/// and download URLs work: `?ckAssetGrant=PAYLOAD.MAC`, where PAYLOAD is the base64url of a JSON
/// array of the fields below and MAC the base64url HMAC-SHA256 of PAYLOAD under the store's
/// secret (`StorageBackedCloud.assetGrantSecret`). An upload grant names the container, environment,
/// database and account (the file's checksum is not known before it is sent); a download grant
/// names the asset's checksum and size too, and, in the shared database, the record and its
/// owner.
public struct AssetGrant: Sendable, Hashable {
    /// What the grant lets its bearer do.
    public enum Kind: String, Sendable, Hashable {
        /// POST one file to `assets/data`.
        case upload
        /// GET one asset from `assets/download`.
        case download
    }

    /// Upload or download.
    public var kind: Kind
    /// The container, environment (`development`/`production`) and database (`private`,
    /// `shared`, `public`) of the path the grant works on.
    public var container: String
    public var environment: String
    public var scope: String
    /// The account the request acts as.
    public var account: String
    /// The asset's checksum and size (download grants; empty and -1 for uploads).
    public var checksum: String = ""
    public var size: Int64 = -1
    /// The shared database's record and its owner (empty elsewhere).
    public var zoneName: String = ""
    public var recordName: String = ""
    public var owner: String = ""
    /// When the grant ends (ms since 1970).
    public var expires: Int64

    /// The text of the grant signed under `key`.
    public func token(key: [UInt8]) -> String {
        let fields: [JSONValue] = [.string(kind.rawValue), .string(container), .string(environment), .string(scope), .string(account),
                                   .string(checksum), .int(size), .string(zoneName), .string(recordName), .string(owner), .int(expires)]
        let payload = Base64.encode(Array(JSONValue.array(fields).serialized().utf8), url: true, padding: false)
        return payload + "." + Self.mac(payload, key: key)
    }

    /// The grant `token` carries, if `key` signed it; `.malformed` or `.badSignature` otherwise.
    public static func verified(_ token: String, key: [UInt8]) -> Result<AssetGrant, AssetGrantRefusal> {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count <= 4096, parts.count == 2 else { return .failure(.malformed) }
        let expected = Array(mac(String(parts[0]), key: key).utf8), given = Array(parts[1].utf8)
        guard expected.count == given.count, zip(expected, given).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else {
            return .failure(.badSignature)
        }
        guard let bytes = Base64.decode(String(parts[0])), let json = try? JSONValue.parse(bytes: bytes),
              let f = json.arrayValue, f.count == 11, let kind = f[0].stringValue.flatMap(Kind.init(rawValue:)),
              let container = f[1].stringValue, let environment = f[2].stringValue, let scope = f[3].stringValue,
              let account = f[4].stringValue, let checksum = f[5].stringValue, let size = f[6].int64Value,
              let zoneName = f[7].stringValue, let recordName = f[8].stringValue, let owner = f[9].stringValue,
              let expires = f[10].int64Value else { return .failure(.malformed) }
        return .success(AssetGrant(kind: kind, container: container, environment: environment, scope: scope, account: account,
                                   checksum: checksum, size: size, zoneName: zoneName, recordName: recordName, owner: owner,
                                   expires: expires))
    }

    static func mac(_ payload: String, key: [UInt8]) -> String {
        Base64.encode(HMAC.authenticate(Array(("cloudsync-asset-grant-v1\n" + payload).utf8), key: key, hash: .sha256),
                      url: true, padding: false)
    }
}

/// Why an asset grant is refused (401 AUTHENTICATION_FAILED); the reason never names an asset.
public enum AssetGrantRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `PAYLOAD.MAC`, or a payload that is not a grant.
    case malformed
    /// The MAC is not the store's: forged or tampered with.
    case badSignature
    /// Past its end.
    case expired
    /// A grant for another kind of request, container, environment, database or asset.
    case notThisRequest

    public var description: String {
        switch self {
        case .malformed: "authentication failed: the asset grant is malformed"
        case .badSignature: "authentication failed: the asset grant's signature is not this server's"
        case .expired: "authentication failed: the asset grant has expired; ask for a new URL"
        case .notThisRequest: "authentication failed: the asset grant is for another request"
        }
    }
}
