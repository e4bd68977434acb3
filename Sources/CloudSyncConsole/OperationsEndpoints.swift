import CloudSyncService
import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebProtocol

/// The administrator's calls of the console's Operations page, `POST /admin/1/NAME` with a JSON
/// body, over the credentials in the server's store (what `cloudsync token` does on the store
/// itself). Only a credential with the administrator role (`token create --admin`) may make
/// them; the handler checks that before calling `answer`.
///
/// - `credentials/list` `{}` → `{credentials: [{id, account, kind, role, container, created, lastUsed}]}`
/// - `credentials/create` `{account, admin}` or `{api: true, container}` → `{id, account, role, container?, token}` (shown once)
/// - `credentials/revoke` `{id}` → `{id, revoked: true}`
/// - `keys/add` `{account, publicKey, admin}` → `{id, account, role}`
public struct OperationsEndpoints: Sendable {
    /// The names answered to administrators.
    public static let names: Set<String> = ["credentials/list", "credentials/create", "credentials/revoke", "keys/add"]
    /// `POST /admin/1/role` → `{account, role}` (`admin`, `user` or `none`): what the caller's own
    /// credential is; any credential may ask.
    public static let role = "role"

    let service: StorageBackedCloud

    public init(service: StorageBackedCloud) {
        self.service = service
    }

    /// The reply to `name` with `body`; a bad request or a refused act is a thrown CloudError.
    func answer(_ name: String, body: [UInt8]) throws(CloudError) -> JSONValue {
        let json: JSONValue
        do {
            json = body.isEmpty ? .object([]) : try JSONValue.parse(bytes: body, duplicateKeys: .refused)
        } catch {
            throw CloudError(.invalidArguments, "malformed JSON at byte offset \(error.offset): \(error.message)")
        }
        guard case .object = json else { throw CloudError(.invalidArguments, "the request must be a JSON object") }
        switch name {
        case "credentials/list":
            return .object([("credentials", .array(try service.credentials().map(Self.encode)))])
        case "credentials/create":
            if json["api"]?.boolValue == true {
                let container = try string(json, "container")
                let (row, token) = try service.createAPIToken(container: container)
                return .object([("id", .string(row.id)), ("account", .string("")), ("role", .string(Self.role(row))),
                                ("container", .string(row.container ?? "")), ("token", .string(token))])
            }
            let account = try accountName(json)
            let (row, token) = try service.createToken(account: account, admin: json["admin"]?.boolValue ?? false)
            return .object([("id", .string(row.id)), ("account", .string(row.account)), ("role", .string(Self.role(row))),
                            ("token", .string(token))])
        case "credentials/revoke":
            let id = try string(json, "id")
            try service.revokeCredential(id: id)
            return .object([("id", .string(id)), ("revoked", .bool(true))])
        case "keys/add":
            let account = try accountName(json)
            let pem = try string(json, "publicKey")
            let keyID: String
            do {
                keyID = try ServerKeySignature.keyID(publicKeyPEM: pem)
            } catch {
                throw CloudError(.invalidArguments, "publicKey is not a PEM ECDSA P-256 public key: \(error)")
            }
            let row = try service.addServerKey(account: account, publicKeyPEM: pem, keyID: keyID, admin: json["admin"]?.boolValue ?? false)
            return .object([("id", .string(row.id)), ("account", .string(row.account)), ("role", .string(Self.role(row)))])
        default:
            throw CloudError(.unknownItem, "no such operation \(NameRules.quoted(name))")
        }
    }

    func string(_ json: JSONValue, _ name: String) throws(CloudError) -> String {
        guard let value = json[name]?.stringValue, !value.isEmpty else { throw CloudError(.invalidArguments, "'\(name)' is required") }
        return value
    }

    func accountName(_ json: JSONValue) throws(CloudError) -> String {
        let account = try string(json, "account")
        let allowed = account.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || [45, 46, 64, 95].contains(byte)
        }
        guard account.utf8.count <= 128, allowed else {
            throw CloudError(.invalidArguments, "account must be letters, digits, '.', '-', '_' or '@' (at most 128)")
        }
        return account
    }

    /// A credential as listed (never its secret).
    static func encode(_ row: CredentialRow) -> JSONValue {
        .object([("id", .string(row.id)), ("account", .string(row.account)), ("kind", .string(row.kind.rawValue)),
                 ("role", .string(role(row))), ("container", row.container.map { .string($0) } ?? .null),
                 ("created", .string(ISO8601.format(milliseconds: row.created))),
                 ("lastUsed", row.lastUsed.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null)])
    }

    /// `admin`, `user`, or `none` for an API token (as `token list` shows).
    static func role(_ row: CredentialRow) -> String { row.kind == .apiToken ? "none" : row.isAdmin ? "admin" : "user" }
}
