import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// Schema administration over the `schema/…` extension endpoints of `cloudsync serve`. Import,
/// deploy and reset go as the caller's account (whose credential the server checks for the
/// administrator role: the caller's standing is the server's to judge, not the client's); export
/// goes as the account signed in through this client, else `configuration.schemaAccount`.
extension HTTPCloud: SchemaService {
    /// The login name the schema calls are sent as.
    func schemaAccountName() throws(CloudError) -> String {
        if let name = accounts.withLock({ $0.values.sorted().first }) { return name }
        if let name = configuration.schemaAccount { return name }
        throw CloudError(.notAuthenticated, "no account has signed in through this client to administer the schema")
    }

    func schemaCall(_ endpoint: WebServicesEndpoint, container: String, environment: CloudEnvironment, as account: String? = nil,
                    _ body: JSONValue) throws(CloudError) -> JSONValue {
        var name = account ?? ""
        if account == nil { name = try schemaAccountName() }
        let reply = try send(endpoint, container: container, environment: environment, scope: .private, account: name,
                             device: nil, body: Array(body.serialized().utf8))
        return try Self.parse(reply)
    }

    public func schema(container: String, environment: CloudEnvironment) throws(CloudError) -> CloudSchema {
        let reply = try schemaCall(.schemaExport, container: container, environment: environment, .object([]))
        do {
            return try SchemaCodec.decodeSchema(reply)
        } catch {
            throw SchemaCodec.malformed("the exported schema does not parse (\(error.reason))")
        }
    }

    public func importSchema(_ schema: CloudSchema, container: String, dryRun: Bool, by caller: Caller) throws(CloudError) -> SchemaDiff {
        let body = JSONValue.object([("schema", .string(SchemaPrinter.print(schema))), ("dryRun", .bool(dryRun))])
        return try SchemaCodec.decodeDiff(try schemaCall(.schemaImport, container: container, environment: .development,
                                                         as: caller.account, body))
    }

    public func deploySchema(container: String, dryRun: Bool, allowWiderGrants: Bool,
                             by caller: Caller) throws(CloudError) -> SchemaDeployCheck {
        let body = JSONValue.object([("dryRun", .bool(dryRun)), ("allowWiderGrants", .bool(allowWiderGrants))])
        return try SchemaCodec.decodeCheck(try schemaCall(.schemaDeploy, container: container, environment: .development,
                                                          as: caller.account, body))
    }

    public func resetDevelopment(container: String, by caller: Caller) throws(CloudError) {
        _ = try schemaCall(.schemaReset, container: container, environment: .development, as: caller.account, .object([]))
    }
}
