import CloudSyncCore

/// Schema administration of a container, what `cloudsync schema` talks to. `StorageBackedCloud`
/// implements it over any `CloudStorage`; `HTTPCloud` over the `schema/…` endpoints of `cloudsync serve`.
public protocol SchemaService: AnyObject, Sendable {
    /// The schema of a container's environment: the declared one (imported or deployed) plus,
    /// in development, every field that grew on save.
    func schema(container: String, environment: CloudEnvironment) throws(CloudError) -> CloudSchema
    /// Replaces the development schema with `schema` (unless `dryRun`); returns what changed.
    /// Needs an administrator of the container (`caller`), except for a dry run.
    func importSchema(_ schema: CloudSchema, container: String, dryRun: Bool, by caller: Caller) throws(CloudError) -> SchemaDiff
    /// Promotes the development schema to production when the change is additive (unless
    /// `dryRun`); returns the check, whose violations mean nothing was changed. A grant that
    /// widens who may create or write production records is a violation unless
    /// `allowWiderGrants`. Needs an administrator of the container, except for a dry run.
    func deploySchema(container: String, dryRun: Bool, allowWiderGrants: Bool, by caller: Caller) throws(CloudError) -> SchemaDeployCheck
    /// Deletes the development schema and every zone and record of development, of every
    /// account. Needs an administrator of the container.
    func resetDevelopment(container: String, by caller: Caller) throws(CloudError)
}
