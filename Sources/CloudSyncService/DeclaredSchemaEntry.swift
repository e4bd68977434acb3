import CloudSyncCore

/// A declared schema as this process last parsed it, with the text it came from.
struct DeclaredSchemaEntry {
    var text: String
    var schema: CloudSchema
}
