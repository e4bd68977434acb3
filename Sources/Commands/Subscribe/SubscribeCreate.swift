import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync subscribe create`: a database, zone or query subscription.
enum SubscribeCreate {
    static let spec = CommandSpec(
        name: "create", abstract: "Create (or replace) a database, zone or query subscription.",
        discussion: """
            What to watch: --query TYPE makes a query subscription (with --where, --arg, --fires-on, \
            --once, and --zone to limit it to one zone); otherwise --zone NAME makes a zone \
            subscription; otherwise --database SCOPE makes a database subscription. --database also \
            names the database of a query subscription (default private). Saving an existing ID \
            replaces that subscription. In the shared database a zone is the zone of one owner: \
            --owner names it when zones of that name are shared with you by several accounts.

            Query subscriptions fire for a created or updated record that matches --where as \
            saved, and for a deleted record that matched as it was; --fires-on picks the events \
            (default create,update,delete). --once deletes the subscription after it fired. \
            Notifications are silent unless --alert gives their text; --desired-keys copies up to \
            three fields of the record into each query notification.
            """,
        options: [
            OptionSpec("database", value: "SCOPE", help: "A database subscription on SCOPE; for --query, its database (default private).",
                       completion: .values(["private", "shared", "public"])),
            OptionSpec("zone", value: "ZONE", help: "A zone subscription on ZONE; for --query, limit it to ZONE.",
                       completion: .zoneName),
            OptionSpec("query", value: "TYPE", help: "A query subscription on records of TYPE.", completion: .recordType),
            OptionSpec("where", value: "PREDICATE", help: "With --query: which records (default TRUEPREDICATE)."),
            OptionSpec("arg", value: "VALUE", help: "Value for the next %@ of --where (repeatable).", repeatable: true),
            OptionSpec("fires-on", value: "EVENTS", help: "With --query: create,update,delete or a part of it (default all three)."),
            OptionSpec("once", help: "With --query: delete the subscription after it fired once."),
            OptionSpec("id", value: "ID", help: "The subscription ID (default: a new random UUID)."),
            OptionSpec("silent", help: "Silent notifications that only wake the listener (the default)."),
            OptionSpec("alert", value: "TEXT", help: "With --query: the alert text of each notification."),
            OptionSpec("desired-keys", value: "A,B,C", help: "With --query: up to three fields carried by each notification."),
            SharedOwnerOption.option,
        ],
        examples: [Example("cloudsync subscribe create --database private --id private-changes", "Any change in the private database."),
                   Example("cloudsync subscribe create --zone Notes", "Any change in the zone Notes."),
                   Example("cloudsync subscribe create --query Post --where 'topic == %@' --arg swift --database public --fires-on create",
                           "New public posts about Swift."),
                   Example("cloudsync subscribe create --query Order --where \"status == 'shipped'\" --once --desired-keys status,total",
                           "The first shipped order, then never again.")],
        jsonOutput: SubscribeJSONOutput.create,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let subscription = try subscription(from: arguments)
        let scopes = try SubscribeCommand.scopes(arguments, default: [.private])
        guard scopes.count == 1, let scope = scopes.first else {
            throw CLIError.usage("a subscription lives in one database; give --database once")
        }
        let session = try context.session()
        let request = try context.databaseRequest(arguments, session: session, default: scope)
        let saved = try session.cloud.saveSubscriptions([subscription], in: request)
        guard let stored = saved.first else { throw CLIError.internalError("the cloud returned no subscription") }
        let replaced = stored.creationDate != stored.modificationDate
        if context.output.isJSON {
            context.output.json(.object([("subscription", stored.json(scope: scope, zoneOwner: request.zoneOwner)),
                                         ("replaced", .bool(replaced))]))
        } else {
            context.output.line("\(replaced ? "replaced" : "created") subscription \(stored.subscriptionID): \(SubscriptionText.summary(stored, scope: scope))")
        }
    }

    /// The subscription the options describe; command-line mistakes are usage errors (64), the
    /// rest is checked by the cloud.
    static func subscription(from arguments: ParsedArguments) throws -> Subscription {
        let queryType = arguments.value("query")
        if queryType == nil {
            for option in ["where", "arg", "fires-on", "once", "alert", "desired-keys"]
            where arguments.flag(option) || !arguments.values(option).isEmpty {
                throw CLIError.usage("--\(option) needs a query subscription (--query TYPE)")
            }
        }
        if arguments.flag("silent") && arguments.value("alert") != nil {
            throw CLIError.usage("give --silent or --alert TEXT, not both")
        }
        let kind: Subscription.Kind
        if let type = queryType {
            var firesOn = QueryFiresOn.all
            if let text = arguments.value("fires-on") {
                do {
                    firesOn = try QueryFiresOn(parsing: text)
                } catch {
                    throw CLIError.usage("--fires-on: \(error.reason)")
                }
            }
            // A predicate that does not parse is bad input data (65), with its column.
            let predicate = try PredicateParser.parse(arguments.value("where") ?? "TRUEPREDICATE", arguments: arguments.values("arg"))
            kind = .query(QuerySubscription(recordType: type, predicate: predicate, zoneName: arguments.value("zone"),
                                            firesOn: firesOn, firesOnce: arguments.flag("once")))
        } else if let zone = arguments.value("zone") {
            kind = .recordZone(zoneName: zone)
        } else if arguments.value("database") != nil {
            kind = .database
        } else {
            throw CLIError.usage("say what to subscribe to: --database SCOPE, --zone NAME or --query TYPE")
        }
        var desiredKeys: [String] = []
        if let text = arguments.value("desired-keys") {
            desiredKeys = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
            guard !desiredKeys.contains(where: \.isEmpty) else {
                throw CLIError.usage("--desired-keys '\(text)' has an empty item; give field names separated by commas")
            }
        }
        return Subscription(subscriptionID: arguments.value("id") ?? SubscriptionText.randomID(), kind: kind,
                            notificationInfo: NotificationInfo(alertBody: arguments.value("alert"), desiredKeys: desiredKeys))
    }
}
