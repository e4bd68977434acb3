import CloudSyncCLI
import CloudSyncCore
import CloudSyncDevice

/// `store revert NAME… --database public`: drop pending changes and take the cloud's version.
enum StoreRevert {
    static let spec = CommandSpec(
        name: "revert", abstract: "Drop this device's pending changes to public records and take the cloud's version.",
        discussion: """
            The way out of a change the public database keeps refusing, such as an edit of a \
            record another account created (77 at every sync): the record is fetched from the \
            public database and replaces the local one; a record the cloud does not have is \
            removed from the store. Works on the public store (--database public); needs the cloud.
            """,
        options: [StoreDatabase.option],
        arguments: [ArgumentSpec("name", help: "Record name.", repeating: true, completion: .recordName)],
        examples: [Example("cloudsync store revert p1 --database public", "Give up an edit the cloud refused.")],
        jsonOutput: StoreJSONOutput.revert,
        run: { context, arguments in
            guard try StoreDatabase.isPublic(context, arguments) else {
                throw CLIError.usage("store revert works on the public store: add --database public")
            }
            let names = arguments.arguments("name")
            guard !names.isEmpty else { throw CLIError.usage("name the records to revert") }
            let store = try context.publicDeviceStore()
            let container = StoreCommand.container(context)
            let zone = ZoneID.defaultZoneName
            var missing: [String] = []
            for name in names where try store.localRecord(container: container, zone: zone, name: name) == nil
                && !store.isPending(container: container, zone: zone, name: name) {
                missing.append(name)
            }
            guard missing.isEmpty else {
                throw CLIError.notFound("no record \(missing.joined(separator: ", ")) in the public store")
            }
            let session = try context.session()
            try session.keyValueSync().sync()
            guard try SyncToggle.isOn(store: try context.deviceStore(), container: container) else {
                throw CLIError.failed("sync is off for account \(context.settings.account): nothing was fetched; turn it on with 'cloudsync store sync on'")
            }
            let mirror = PublicMirror(cloud: session.retryingCloud, store: store, request: session.request(.public),
                                      adapter: GenericStoreAdapter(zoneName: zone), recordTypes: [])
            let (restored, removed) = try mirror.revert(names)
            if context.output.isJSON {
                context.output.json(.object([("restored", .array(restored.map { .string($0) })),
                                             ("removed", .array(removed.map { .string($0) }))]))
            } else {
                for name in restored { context.output.line("reverted \(name) to the cloud's version") }
                for name in removed { context.output.line("removed \(name): the cloud does not have it") }
            }
        })
}
