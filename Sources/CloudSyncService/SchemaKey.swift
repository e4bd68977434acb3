/// A record type of a container: what the schema cache is keyed by.
struct SchemaKey: Hashable {
    var container: String
    var recordType: String
}
