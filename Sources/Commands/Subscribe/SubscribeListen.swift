import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync subscribe listen`: prints (and optionally acts on) each notification for this
/// device as it arrives.
enum SubscribeListen {
    /// Seconds between two reads of the queue when no wake-up came: a safety net only.
    static let safetyPoll = 5.0
    /// Notifications read at once (without --once).
    static let batchSize = 100

    static let spec = CommandSpec(
        name: "listen", abstract: "Wait for notifications and print (or act on) each one.",
        discussion: """
            Registers this device, then prints every notification for it as it arrives, one line \
            each (NDJSON with --json): first those that waited while the device was away, then \
            new ones, typically within milliseconds of the change being committed on another \
            device. Waiting costs no CPU: the embedded cloud wakes the listener through a file \
            watched with inotify. Reading a notification acknowledges it; it is not delivered again.

            --exec COMMAND runs COMMAND with /bin/sh once per notification, after printing it, and \
            waits for it before reading the next. It inherits the context (CLOUDSYNC_ACCOUNT, \
            CLOUDSYNC_DEVICE, CLOUDSYNC_CONTAINER, CLOUDSYNC_CLOUD, CLOUDSYNC_HOME), the notification \
            (CLOUDSYNC_NOTIFICATION_JSON, CLOUDSYNC_NOTIFICATION_ID, CLOUDSYNC_NOTIFICATION_TYPE, \
            CLOUDSYNC_SUBSCRIPTION_ID, CLOUDSYNC_DATABASE, CLOUDSYNC_ZONE, CLOUDSYNC_RECORD_NAME, \
            CLOUDSYNC_RECORD_TYPE, CLOUDSYNC_REASON) and a PATH that starts with this cloudsync's \
            folder; its output goes to stderr. A command that fails is reported and listening goes on.

            --retry survives the cloud going away: it says 'offline: ...' on stderr, tries again \
            after 1 s, doubling up to 60 s with jitter (CLOUDSYNC_SYNC_BACKOFF=INITIAL,MAX shortens \
            it), then says 'online again after N s' and goes on listening; without it an \
            unreachable cloud exits 69.

            Exit status: 0 once at least one notification was printed (with --once, after the first \
            one; with --once and --exec, the command's status); 75 when --timeout passed without \
            any notification. --timeout counts from the start and again after each notification; \
            --timeout 0 prints what is waiting and returns.
            """,
        options: [
            OptionSpec("once", help: "Exit after the first notification."),
            OptionSpec("timeout", value: "SECONDS", help: "Exit (status 75 if nothing came) after SECONDS without a notification."),
            OptionSpec("exec", value: "COMMAND", help: "Run COMMAND (through /bin/sh -c) once per notification."),
            OptionSpec("retry", help: "When the cloud cannot be reached, wait for it (backoff 1 s to 60 s) and resume instead of exiting 69."),
        ],
        examples: [Example("cloudsync --device phone subscribe listen", "Print notifications as they come."),
                   Example("cloudsync --device phone subscribe listen --exec 'cloudsync fetch-changes'",
                           "The app's loop: fetch whenever another device changed something."),
                   Example("cloudsync subscribe listen --once --timeout 30 --json",
                           "Wait up to 30 s for one notification, as JSON.")],
        jsonOutput: SubscribeJSONOutput.listen,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let once = arguments.flag("once")
        var timeout: Double?
        if let text = arguments.value("timeout") {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw CLIError.usage("--timeout must be a number of seconds (0 or more), got '\(text)'")
            }
            timeout = seconds
        }
        var exec: SubscribeExec?
        if let command = arguments.value("exec") {
            guard command.contains(where: { !$0.isWhitespace }) else { throw CLIError.usage("--exec needs a command") }
            exec = SubscribeExec(command: command, context: context)
        }
        let retry = try ListenRetry(enabled: arguments.flag("retry"), context: context)
        let session = try retry.attempt { try context.session() }
        let cloud = session.retryingCloud
        let device = DeviceAddress(session.request(.private))
        try retry.attempt { try cloud.registerDevice(device) }
        let waiter = try retry.attempt { try cloud.makeNotificationWaiter(for: device) }
        let output = context.output
        if timeout != 0 {
            output.info("Listening for notifications to device \(device.deviceID) of \(context.settings.account) (\(waiter.mechanism)); Ctrl-C to stop.")
        }

        let limit = once ? 1 : batchSize
        var delivered = 0
        var deadline = timeout.map { NotificationClock.now() + $0 }
        while true {
            let batch = try retry.attempt(after: { try cloud.registerDevice(device) }) {
                try cloud.takeNotifications(for: device, limit: limit)
            }
            for notification in batch {
                if output.isJSON {
                    output.ndjson(notification.json)
                } else {
                    output.line(.value(SubscriptionText.line(notification)))
                }
                output.flush()
                delivered += 1
                if let exec {
                    let status = try exec.run(notification)
                    if once, status != 0 { throw CLIError.exit(status) }
                    if status != 0 {
                        output.warning("--exec command exited with status \(status) for notification \(notification.notificationID)")
                    }
                }
                if once { return }
            }
            if !batch.isEmpty {
                deadline = timeout.map { NotificationClock.now() + $0 }
                if batch.count == limit { continue }
            }
            var pause = safetyPoll
            if let deadline {
                let remaining = deadline - NotificationClock.now()
                if remaining <= 0 { break }
                pause = min(pause, remaining)
            }
            _ = waiter.wait(timeout: pause)
        }
        if delivered > 0 { return }
        let waited = timeout ?? 0
        throw CLIError.tempFailure(waited == 0 ? "no notification is waiting"
                                              : "no notification arrived within \(formatted(waited)) s")
    }

    static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
