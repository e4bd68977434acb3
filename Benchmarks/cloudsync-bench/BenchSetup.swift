import CloudSyncService
import CloudSyncSQLiteCloud
import CloudSyncCore

/// The fixed names every part of the bench uses: one account, one custom zone in its private
/// database, one device name.
enum BenchSetup {
    static let container = "iCloud.com.example.Bench"
    static let accountName = "bench"
    static let deviceID = "bench-device"
    static let zoneName = "Items"
    static let recordType = "Item"

    /// The private-database request of the bench account as `device`, creating the account on
    /// first use.
    static func request(_ cloud: SQLiteCloud, deviceID device: String = deviceID) throws(CloudError) -> DatabaseRequest {
        let account = try cloud.account(named: accountName)
        return DatabaseRequest(container: container, scope: .private, userRecordName: account.userRecordName,
                               deviceID: device)
    }
}
