import CloudSyncService

/// The LISTEN/NOTIFY channel of a device: `cloudsync_` and a 64-bit FNV-1a hash of the schema,
/// container, account and device (channel names are at most 63 bytes). Two devices sharing a
/// hash only wake each other spuriously, which listeners allow.
enum PostgresNotificationChannel {
    static func name(for device: DeviceAddress, schema: String?) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for part in [schema ?? "", device.container, device.userRecordName, device.deviceID] {
            for byte in part.utf8 + [0] {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return "cloudsync_" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
