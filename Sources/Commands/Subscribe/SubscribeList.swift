import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync subscribe list`.
enum SubscribeList {
    static let spec = CommandSpec(
        name: "list", abstract: "List the account's subscriptions.",
        discussion: "Lists the subscriptions of every database, or of the databases given with --database.",
        options: [OptionSpec("database", value: "SCOPE", help: "Only this database (repeatable).", repeatable: true,
                             completion: .values(["private", "shared", "public"]))],
        examples: [Example("cloudsync subscribe list", "Every subscription of the account."),
                   Example("cloudsync subscribe list --database public --json", "Public ones, as JSON.")],
        jsonOutput: SubscribeJSONOutput.list,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let scopes = try SubscribeCommand.scopes(arguments)
        let session = try context.session()
        var rows: [(DatabaseScope, DatabaseRequest, Subscription)] = []
        for scope in scopes {
            let request = session.request(scope)
            rows += try session.cloud.fetchAllSubscriptions(in: request).map { (scope, request, $0) }
        }
        if context.output.isJSON {
            context.output.json(.object([("subscriptions", .array(rows.map { scope, request, subscription in
                subscription.json(scope: scope, zoneOwner: request.zoneOwner)
            }))]))
            return
        }
        guard !rows.isEmpty else {
            context.output.info("No subscriptions. Create one with 'cloudsync subscribe create' or 'cloudsync subscribe init'.")
            return
        }
        context.output.table(["ID", "DATABASE", "TYPE", "TARGET", "FIRES ON", "NOTIFICATION"], rows.map { scope, _, subscription in
            let firesOn = subscription.query.map { $0.firesOn.names.joined(separator: ",") + ($0.firesOnce ? " (once)" : "") }
                ?? "any change"
            var notification = subscription.notificationInfo.alertBody.map { "alert \"\($0)\"" } ?? "silent"
            if !subscription.notificationInfo.desiredKeys.isEmpty {
                notification += ", keys " + subscription.notificationInfo.desiredKeys.joined(separator: ",")
            }
            return [subscription.subscriptionID, scope.rawValue, subscription.kind.typeName,
                    SubscriptionText.target(subscription), firesOn, notification]
        })
    }
}
