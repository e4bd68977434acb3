import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync subscribe delete ID...`.
enum SubscribeDelete {
    static let spec = CommandSpec(
        name: "delete", abstract: "Delete subscriptions by ID.",
        discussion: """
            Without --database each ID is looked up in every database of the account; an ID that \
            exists in more than one needs --database. All or nothing: an unknown ID deletes \
            nothing and exits 3.
            """,
        options: [OptionSpec("database", value: "SCOPE", help: "The database of the subscriptions.",
                             completion: .values(["private", "shared", "public"]))],
        arguments: [ArgumentSpec("id", help: "Subscription ID.", repeating: true, completion: .subscriptionID)],
        examples: [Example("cloudsync subscribe delete private-changes", "Stop hearing about the private database.")],
        jsonOutput: SubscribeJSONOutput.delete,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let ids = arguments.arguments("id")
        guard !ids.isEmpty else { throw CLIError.usage("name the subscription IDs to delete") }
        let session = try context.session()
        var byScope: [(DatabaseScope, [String])] = []
        if arguments.value("database") != nil {
            byScope = [(try context.databaseScope(arguments), ids)]
        } else {
            var existing: [DatabaseScope: Set<String>] = [:]
            for scope in DatabaseScope.allCases {
                existing[scope] = Set(try session.cloud.fetchAllSubscriptions(in: session.request(scope)).map(\.subscriptionID))
            }
            var missing: [String] = []
            for id in ids {
                let scopes = DatabaseScope.allCases.filter { existing[$0]?.contains(id) == true }
                if scopes.isEmpty {
                    missing.append(id)
                } else if scopes.count > 1 {
                    throw CLIError.usage("subscription '\(id)' exists in the \(scopes.map(\.rawValue).joined(separator: " and ")) databases; add --database")
                } else if let index = byScope.firstIndex(where: { $0.0 == scopes[0] }) {
                    if !byScope[index].1.contains(id) { byScope[index].1.append(id) }
                } else {
                    byScope.append((scopes[0], [id]))
                }
            }
            guard missing.isEmpty else {
                throw CloudError(.unknownItem, "no subscription \(missing.map { "'\($0)'" }.joined(separator: ", ")) in any database of \(context.settings.account); nothing was deleted")
            }
        }
        for (scope, scopeIDs) in byScope {
            try session.cloud.deleteSubscriptions(scopeIDs, in: session.request(scope))
        }
        if context.output.isJSON {
            context.output.json(.object([("subscriptions", .array(byScope.flatMap { scope, scopeIDs in
                scopeIDs.map { JSONValue.object([("subscriptionID", .string($0)), ("databaseScope", .string(scope.rawValue)),
                                                 ("deleted", .bool(true))]) }
            }))]))
        } else {
            for (scope, scopeIDs) in byScope {
                for id in scopeIDs { context.output.line("deleted subscription \(id) (\(scope.rawValue))") }
            }
        }
    }
}
