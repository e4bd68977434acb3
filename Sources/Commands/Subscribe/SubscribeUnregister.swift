import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync subscribe unregister`: retire this device from notifications.
enum SubscribeUnregister {
    static let spec = CommandSpec(
        name: "unregister", abstract: "Stop notifications to this device and drop its unread ones.",
        discussion: """
            A device is registered when it saves a subscription or listens, and notifications \
            wait for it until it reads them. Unregister a device that is gone so that nothing \
            piles up for it; it registers again the next time it subscribes or listens. The \
            account's subscriptions stay.
            """,
        examples: [Example("cloudsync --device old-phone subscribe unregister", "Retire a device.")],
        jsonOutput: SubscribeJSONOutput.unregister,
        run: { context, _ in
            let session = try context.session()
            let device = DeviceAddress(session.request(.private))
            try session.cloud.unregisterDevice(device)
            if context.output.isJSON {
                context.output.json(.object([("unregistered", .string(device.deviceID))]))
            } else {
                context.output.line("device \(device.deviceID) receives no notifications until it subscribes or listens again")
            }
        })
}
