import CloudSyncCLI
import CloudSyncSession

/// What the subscribe commands print with --json (the man page's JSON OUTPUT section).
enum SubscribeJSONOutput {
    static let create = JSONOutput.document("The saved subscription.", [("subscription", "Apple's subscription dictionary (subscriptionID, subscriptionType, query or zoneID, firesOn, notificationInfo, ...)."), ("replaced", "Whether it replaced one with the same ID.")])
    static let list = JSONOutput.document("The account's subscriptions.", [("subscriptions", "Each as Apple's subscription dictionary, with its databaseScope.")])
    static let delete = JSONOutput.document("The deleted subscriptions.", [("subscriptions", "Each as {subscriptionID, databaseScope, deleted: true}.")])
    static let listen = JSONOutput.lines("One line per notification, as it arrives: Apple's notification dictionary.", [("notificationID", "The notification's ID."), ("notificationType", "database, recordZone or query."), ("?subscriptionID", "The subscription that fired."), ("containerIdentifier", "The container."), ("?databaseScope", "private, shared or public."), ("?zoneID", "{zoneName, ownerRecordName}."), ("?recordName", "query: the record."), ("?recordType", "query: its type."), ("?queryNotificationReason", "query: recordCreated, recordUpdated or recordDeleted."), ("?recordFields", "query: the desired keys' values."), ("alertBody", "The alert text, or null."), ("isSilent", "Whether it only wakes the listener."), ("creationDate", "Milliseconds since the epoch.")])
    static let `init` = JSONOutput.document("What init found and did.", [("zones", "The zones asked for, as zone dictionaries {zoneID: {zoneName, ownerRecordName}} (owner __defaultOwner__: the current user)."), ("subscriptions", "[{subscriptionID, databaseScope}] asked for."), ("createdZones", "Zones created by this run, as zone dictionaries."), ("createdSubscriptions", "[{subscriptionID, databaseScope}] created by this run."), ("verified", "Whether --verify asked the cloud."), ("requests", "Requests sent to the cloud."), ("upToDate", "true when nothing had to be created.")])
    static let unregister = JSONOutput.document("The result.", [("unregistered", "The device ID unregistered.")])
}
