import CloudSyncCLI
import CloudSyncService
import CloudSyncCore

/// "Did you mean …?" for the names a newcomer mistypes that live in the cloud: zones, record
/// types and fields (issue 30), with the suggestion helper the commands and options use
/// (`Suggestions.didYouMean`). Looking the names up is best effort: a hint never turns a
/// command's answer into another error.
public enum NameHints {
    /// The hint for a zone of the request's database that does not exist, or nil.
    public static func zone(_ name: String, session: CloudSession, request: DatabaseRequest) -> String? {
        guard let zones = try? session.cloud.fetchAllZones(in: request) else { return nil }
        return Suggestions.didYouMean(name, among: zones.map(\.zoneID.zoneName))
    }

    /// The schema of the session's container and environment, nil when the cloud cannot say.
    public static func schema(_ session: CloudSession) -> CloudSchema? {
        guard let service = session.capabilities.schema else { return nil }
        let settings = session.context.settings
        return try? service.schema(container: settings.container, environment: settings.environment)
    }

    /// The record types of the session's schema, nil when the cloud cannot say.
    public static func recordTypes(_ session: CloudSession) -> [String]? {
        schema(session).map { Array($0.recordTypes.keys) }
    }

    /// Warnings for a record type the schema lacks, or fields its type lacks, that are close to
    /// known ones (`record save Noet`, `--field titel=…`): in development a save grows the
    /// schema, so a typo would quietly become a new type or field.
    /// Not asked of a server (`http(s)://`): a save there must stay one request.
    public static func newNameWarnings(type: String, fields: [String], session: CloudSession) -> [String] {
        if (try? CloudLocator(parsing: session.context.settings.cloudURL))?.isWebServicesServer == true { return [] }
        guard let schema = schema(session) else { return [] }
        guard let known = schema.recordType(named: type) else {
            guard let hint = Suggestions.didYouMean(type, among: Array(schema.recordTypes.keys)) else { return [] }
            return ["'\(type)' is a new record type in the schema. \(hint)"]
        }
        let names = known.fields.keys.filter { !FieldSchema.systemFieldTypes.keys.contains($0) }
        return fields.filter { known.field(named: $0) == nil }.compactMap { field in
            Suggestions.didYouMean(field, among: Array(names)).map { "'\(field)' is a new field of \(type). \($0)" }
        }
    }

    /// Runs `body`; a zone-not-found error of it gets the nearest zone of the request's
    /// database as a hint (`record save … --zone notes` → `Did you mean 'Notes'?`).
    public static func suggestingZone<T>(_ name: String, session: CloudSession, request: DatabaseRequest,
                                         _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CloudError where error.code == .zoneNotFound && !error.reason.contains(Suggestions.hintPrefix) {
            guard let hint = zone(name, session: session, request: request) else { throw error }
            var hinted = error
            hinted.reason += "\n" + hint
            throw hinted
        }
    }
}
