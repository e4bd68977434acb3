import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

extension CompletionKind {
    /// The identifier of a subscription (a kind of the subscribe family).
    public static let subscriptionID = CompletionKind.live(LiveCompletion("subscriptionID",
                                                                        provider: SubscribeCommand.subscriptionIDs))
}

/// `cloudsync subscribe`: subscriptions kept by the cloud and the notifications they deliver
/// (seed 001: subscribe once, be woken when another device changes something, fetch only what
/// changed).
public enum SubscribeCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "subscribe",
        abstract: "Subscribe to changes and listen for notifications.",
        discussion: """
            A subscription belongs to the account that saved it and lives in one database. A \
            database subscription (--database) fires for any change in the private or shared \
            database, a zone subscription (--zone) for any change in one custom zone, a query \
            subscription (--query TYPE --where PREDICATE) for each created, updated or deleted \
            record of TYPE that matches; query subscriptions are the only kind the public database \
            allows.

            Every device of the account that saved a subscription or listened is registered and \
            receives a notification for each matching change made on another device (never for its \
            own). Database and zone notifications are silent and coalesce: while one is unread, \
            further changes add nothing. Notifications wait in the cloud, across restarts, until \
            the device reads them with 'subscribe listen', which acknowledges them.

            'subscribe init' is an app's start-up step: it creates the app's zones and its \
            private and shared database subscriptions once and remembers that it did, so routine \
            runs send no requests. 'subscribe listen --exec "cloudsync fetch-changes"' is the rest \
            of the loop.

            Exit status: 3 for an unknown subscription ID, 65 for a predicate that does not parse \
            (with its column), more than three desired keys or a kind the database does not allow, \
            64 for a wrong command line (such as an empty or unknown --fires-on); 'subscribe listen' \
            exits 75 when --timeout passes with no notification.
            """,
        examples: [Example("cloudsync subscribe init --zone Notes", "Create the zone and the database subscriptions once."),
                   Example("cloudsync subscribe create --query Note --where 'priority > 3' --fires-on create,update --alert 'Urgent note'",
                           "Hear about urgent notes."),
                   Example("cloudsync --device phone subscribe listen --exec 'cloudsync fetch-changes'",
                           "Fetch whenever another device changed something.")],
        subcommands: [SubscribeCreate.spec, SubscribeList.spec, SubscribeDelete.spec, SubscribeListen.spec,
                      SubscribeInit.spec, SubscribeUnregister.spec])

    /// Live completion of subscription IDs (`.subscriptionID`): the account's subscriptions in
    /// `--database`, or in every database. Reads only; never creates the cloud file.
    public static let subscriptionIDs: LiveValueSource.Provider = { query in
        let context = query.context()
        if try CloudLocator(parsing: query.settings.cloudURL).isKnownAbsent {
            return []
        }
        let session = try context.session()
        var scopes = DatabaseScope.allCases
        if let name = query.arguments.value("database"), let scope = DatabaseScope(argument: name) { scopes = [scope] }
        var ids: [String] = []
        for scope in scopes {
            ids += try session.cloud.fetchAllSubscriptions(in: session.request(scope)).map(\.subscriptionID)
        }
        return ids.sorted()
    }

    static let databaseHelp = "Database: private (default), shared or public."

    /// The scopes of a repeatable `--database` (all three when absent).
    static func scopes(_ arguments: ParsedArguments, default fallback: [DatabaseScope] = DatabaseScope.allCases) throws -> [DatabaseScope] {
        let names = arguments.values("database")
        guard !names.isEmpty else { return fallback }
        var scopes: [DatabaseScope] = []
        for name in names {
            guard let scope = DatabaseScope(argument: name) else {
                throw CLIError.usage("unknown database '\(name)'; use private, shared or public")
            }
            if !scopes.contains(scope) { scopes.append(scope) }
        }
        return scopes
    }

    /// The owner shown in zone IDs of a database.
    static func zoneOwner(_ request: DatabaseRequest) -> String { request.zoneOwner }
}
