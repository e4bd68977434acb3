import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice

/// `cloudsync subscribe init`: seed 001's "initialise the container once".
enum SubscribeInit {
    /// Device sync-state key of the zones this device created (shared with the synchronizer).
    static let zonesKey = "zones_created"
    /// Device sync-state key of the subscriptions this device created, `scope:id` per line.
    static let subscriptionsKey = "subscriptions_created"

    static let spec = CommandSpec(
        name: "init", abstract: "Create the app's zones and database subscriptions once.",
        discussion: """
            Creates the zones given with --zone in the private database and a silent database \
            subscription for each database given with --database (default: private and shared, \
            with the IDs private-changes and shared-changes), then records in the device's store \
            that it did. Later runs find everything recorded and send no request at all, as an app \
            should. With --verify it asks the cloud instead and re-creates whatever is missing (a zone \
            the user deleted, a subscription deleted from another device).
            """,
        options: [
            OptionSpec("zone", value: "ZONE", help: "A zone the app keeps its records in (repeatable).", repeatable: true),
            OptionSpec("database", value: "SCOPE", help: "Subscribe to this database: private or shared (repeatable; default both).",
                       repeatable: true, completion: .values(["private", "shared"])),
            OptionSpec("verify", help: "Ask the cloud what exists and re-create what is missing."),
        ],
        examples: [Example("cloudsync --device phone subscribe init --zone Notes", "First launch: zone and subscriptions."),
                   Example("cloudsync --device phone subscribe init --zone Notes --verify", "Re-create what the cloud lost.")],
        jsonOutput: SubscribeJSONOutput.`init`,
        run: run)

    static func subscriptionID(_ scope: DatabaseScope) -> String { "\(scope.rawValue)-changes" }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let zones = arguments.values("zone").reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        for zone in zones { try NameRules.validateZoneName(zone) }
        let scopes = try SubscribeCommand.scopes(arguments, default: [.private, .shared])
        if scopes.contains(.public) {
            throw CLIError.usage("the public database allows only query subscriptions; use 'subscribe create --query … --database public'")
        }
        let verify = arguments.flag("verify")
        let container = context.settings.container
        let store = try context.deviceStore()
        var knownZones = Set(lines(try store.syncState(container: container, zonesKey)))
        var knownSubscriptions = Set(lines(try store.syncState(container: container, subscriptionsKey)))
        var requests = 0
        var createdZones: [String] = []
        var createdSubscriptions: [(DatabaseScope, String)] = []

        // Everything recorded and nothing to check: no session, no request.
        let wantedSubscriptions = scopes.map { ($0, "\($0.rawValue):\(subscriptionID($0))") }
        let missingZones = zones.filter { !knownZones.contains($0) }
        let missingSubscriptions = wantedSubscriptions.filter { !knownSubscriptions.contains($0.1) }
        if verify || !missingZones.isEmpty || !missingSubscriptions.isEmpty {
            let session = try context.session()
            let cloud = session.retryingCloud
            var zonesToCreate = missingZones
            var subscriptionsToCreate = missingSubscriptions.map(\.0)
            if verify {
                requests += 1
                let live = Set(try cloud.fetchAllZones(in: session.request(.private)).map(\.zoneID.zoneName))
                knownZones = knownZones.intersection(live)
                zonesToCreate = zones.filter { !live.contains($0) }
                subscriptionsToCreate = []
                for (scope, key) in wantedSubscriptions {
                    requests += 1
                    let ids = try cloud.fetchAllSubscriptions(in: session.request(scope)).map(\.subscriptionID)
                    if ids.contains(subscriptionID(scope)) {
                        knownSubscriptions.insert(key)
                    } else {
                        knownSubscriptions.remove(key)
                        subscriptionsToCreate.append(scope)
                    }
                }
            }
            if !zonesToCreate.isEmpty {
                requests += 1
                _ = try cloud.saveZones(zonesToCreate.map { ZoneSpec(name: $0, atomic: false) }, in: session.request(.private))
                createdZones = zonesToCreate
            }
            knownZones.formUnion(zones)
            try store.setSyncState(container: container, zonesKey, knownZones.sorted().joined(separator: "\n"))
            for scope in subscriptionsToCreate {
                requests += 1
                let subscription = Subscription(subscriptionID: subscriptionID(scope), kind: .database)
                _ = try cloud.saveSubscriptions([subscription], in: session.request(scope))
                createdSubscriptions.append((scope, subscription.subscriptionID))
                knownSubscriptions.insert("\(scope.rawValue):\(subscription.subscriptionID)")
                try store.setSyncState(container: container, subscriptionsKey, knownSubscriptions.sorted().joined(separator: "\n"))
            }
        }
        report(context, zones: zones, scopes: scopes, createdZones: createdZones,
               createdSubscriptions: createdSubscriptions, requests: requests, verified: verify)
    }

    static func report(_ context: CommandContext, zones: [String], scopes: [DatabaseScope], createdZones: [String],
                       createdSubscriptions: [(DatabaseScope, String)], requests: Int, verified: Bool) {
        let upToDate = createdZones.isEmpty && createdSubscriptions.isEmpty
        if context.output.isJSON {
            // Zone dictionaries, as `zone create` prints them; the owner is the current user
            // (Apple's placeholder), known without asking the cloud.
            func zoneDictionary(_ name: String) -> JSONValue {
                .object([("zoneID", RecordJSON.encode(zoneID: ZoneID(zoneName: name, ownerRecordName: ZoneID.currentUserOwner)))])
            }
            context.output.json(.object([
                ("zones", .array(zones.map(zoneDictionary))),
                ("subscriptions", .array(scopes.map { scope in
                    .object([("subscriptionID", .string(subscriptionID(scope))), ("databaseScope", .string(scope.rawValue))])
                })),
                ("createdZones", .array(createdZones.map(zoneDictionary))),
                ("createdSubscriptions", .array(createdSubscriptions.map { scope, id in
                    .object([("subscriptionID", .string(id)), ("databaseScope", .string(scope.rawValue))])
                })),
                ("verified", .bool(verified)),
                ("requests", .int(Int64(requests))),
                ("upToDate", .bool(upToDate)),
            ]))
            return
        }
        for zone in createdZones { context.output.line("zone \(zone) ready") }
        for (scope, id) in createdSubscriptions { context.output.line("created subscription \(id) (\(scope.rawValue) database)") }
        if upToDate {
            let what = (zones.map { "zone \($0)" } + scopes.map { "subscription \(subscriptionID($0))" }).joined(separator: ", ")
            context.output.line(verified
                ? "Verified: \(what) exist in the cloud (\(requests) requests)."
                : "Already initialised: \(what) (no request sent; --verify asks the cloud).")
        }
    }

    static func lines(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n").map(String.init)
    }
}
