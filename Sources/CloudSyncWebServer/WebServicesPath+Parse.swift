import CloudSyncCore
import CloudSyncHTTPServer
import CloudSyncWebProtocol

/// The server's reading of a request path: the protocol defines the shape
/// (`WebServicesPath.text`), the server refuses what does not fit it, and checks it as any path
/// its HTTP server hands on (`RequestPath`).
extension WebServicesPath {
    /// Why a path was refused: the HTTP status it answers and the error to report.
    public struct Refusal: Error, Sendable, Hashable {
        public var status: Int
        public var error: CloudError
    }

    /// Parses a path (percent-decoded, without its query string). A NUL or a `.`/`..` segment
    /// is 400 BAD_REQUEST (`RequestPath`); an unknown shape or endpoint is 404; a bad container,
    /// environment or database is 400 BAD_REQUEST with the reason.
    public static func parse(_ path: String) throws(Refusal) -> WebServicesPath {
        do {
            try RequestPath.check(decoded: path.utf8)
        } catch {
            throw Refusal(status: 400, error: CloudError(.invalidArguments, error.description))
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // "", "database", "1", container, environment, database, group, name[, name] (users/lookup/id)
        guard parts.count == 8 || parts.count == 9, parts[0].isEmpty, parts[1] == "database", parts[2] == version else {
            throw Refusal(status: 404, error: CloudError(.unknownItem, "no such endpoint \(NameRules.quoted(path))"))
        }
        // assets/download/FILE: a downloadURL whose ${f} the client filled in (the name is not used).
        let isNamedDownload = parts.count == 9 && parts[6] == "assets" && parts[7] == "download"
        let name = isNamedDownload ? WebServicesEndpoint.assetsDownload.rawValue : parts[6...].joined(separator: "/")
        guard let endpoint = WebServicesEndpoint(rawValue: name) else {
            throw Refusal(status: 404, error: CloudError(.unknownItem, "no such endpoint \(NameRules.quoted(name))"))
        }
        do {
            try NameRules.validateContainerIdentifier(parts[3])
        } catch {
            throw Refusal(status: 400, error: error)
        }
        guard let environment = WebServicesEnvironment(rawValue: parts[4]) else {
            throw Refusal(status: 400, error: CloudError(.invalidArguments,
                                                         "unknown environment \(NameRules.quoted(parts[4])); use development or production"))
        }
        guard let scope = DatabaseScope(rawValue: parts[5]) else {
            throw Refusal(status: 400, error: CloudError(.invalidArguments,
                                                         "unknown database \(NameRules.quoted(parts[5])); use private, shared or public"))
        }
        return WebServicesPath(container: parts[3], environment: environment, scope: scope, endpoint: endpoint)
    }
}
