import CloudSyncCLI
import CloudSyncCloud
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
        guard let service = session.unwrappedCloud as? any SchemaService else { return nil }
        let settings = session.context.settings
        return try? service.schema(container: settings.container, environment: settings.environment)
    }

    /// The record types of the session's schema, nil when the cloud cannot say.
    public static func recordTypes(_ session: CloudSession) -> [String]? {
        schema(session).map { Array($0.recordTypes.keys) }
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
