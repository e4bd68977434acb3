import CloudSyncCLI
import CloudSyncDevice
import CloudSyncOTP
#if canImport(Glibc)
import Glibc
#endif

extension CompletionKind {
    /// The name of an OTP token, from this device's store (a kind of the otp family).
    public static let otpName = CompletionKind.live(LiveCompletion("otpName", provider: OTPCommand.liveNames))
}

extension OTPCommand {
    /// Token names for completion (`otp code <Tab>`), read from the device's store; never
    /// creates a device file.
    public static func liveNames(_ query: LiveValueQuery) throws -> [String] {
        let settings = query.settings
        let path = settings.deviceStorePath
        guard access(path, F_OK) == 0 else { return [] }
        let store = OTPTokenStore(store: try DeviceStore(path: path), container: settings.container, device: settings.device)
        return try store.labelled().map(\.labels.name).sorted()
    }
}
