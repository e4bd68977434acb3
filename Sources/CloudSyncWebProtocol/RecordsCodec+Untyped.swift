import CloudSyncService
import CloudSyncCore

extension RecordsCodec {
    /// The record dictionary without its fields that have no `type`, and those fields' bare
    /// values: `type` is optional when saving, and the service, which knows the schema, types
    /// them (`ModifyRequest.untypedFields`). Their names are checked here like typed ones.
    package static func splitUntypedFields(_ record: JSONValue) throws(CloudError) -> (JSONValue, [String: JSONValue]) {
        guard case .object(let pairs) = record, case .object(let fields)? = record["fields"],
              fields.contains(where: { $0.1["type"] == nil && $0.1["value"] != nil }) else { return (record, [:]) }
        var typed: [(String, JSONValue)] = []
        var untyped: [String: JSONValue] = [:]
        for (name, entry) in fields {
            guard case .object = entry, entry["type"] == nil, let value = entry["value"] else {
                typed.append((name, entry))
                continue
            }
            try NameRules.validateIdentifier(name, kind: "field name")
            untyped[name] = value
        }
        return (.object(pairs.map { $0.0 == "fields" ? ("fields", .object(typed)) : $0 }), untyped)
    }
}
