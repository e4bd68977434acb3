import CloudSyncCLI
import CloudSyncDevice

extension Settings {
    /// This device's store file for the environment.
    public var deviceStorePath: String {
        DeviceStore.defaultPath(home: environmentHome, account: account, device: device)
    }
}
