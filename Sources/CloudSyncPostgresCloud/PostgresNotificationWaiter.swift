import CloudSyncService
import CloudSyncPostgres

/// A listener's sleep on a PostgreSQL cloud: its own connection LISTENs on the device's channel
/// (`PostgresNotificationChannel`) and `wait` blocks in `poll(2)` on that socket, so an idle
/// listener uses no CPU and wakes as soon as a writer anywhere commits a NOTIFY for the device.
final class PostgresNotificationWaiter: NotificationWaiter {
    let url: PostgresURL
    let channel: String
    var connection: PostgresConnection?

    var mechanism: String { "PostgreSQL LISTEN/NOTIFY" }

    init(url: PostgresURL, channel: String) throws {
        self.url = url
        self.channel = channel
        connection = try open()
    }

    func open() throws -> PostgresConnection {
        let connection = try PostgresConnection(url)
        try connection.listen(channel)
        return connection
    }

    func wait(timeout: Double) -> Bool {
        let milliseconds = Int(max(0, min(timeout, 86_400)) * 1000)
        do {
            if connection == nil { connection = try open() }
            guard let connection else { return true }
            guard try connection.waitForNotification(timeout: .milliseconds(milliseconds)) != nil else { return false }
            // Drain what else arrived: one wake-up covers them all.
            while try connection.waitForNotification(timeout: .zero) != nil {}
            return true
        } catch {
            // Lost the server: reconnect at the next wait; report a possible notification after
            // a pause, so the listener reads its queue (and sees the error) without spinning.
            connection = nil
            NotificationClock.sleep(min(max(timeout, 0), 1))
            return true
        }
    }
}
