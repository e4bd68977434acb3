import CloudSyncCLI
import CloudSyncIdentity

/// The session is what identity keys and messages work over: its cloud, account and user
/// directory as they are, the data key unlocked as `keys unlock` left it, and the pins of this
/// device under `$CLOUDSYNC_HOME/keys`.
extension CloudSession: IdentityContext {
    public func identityDataKey() throws -> [UInt8] {
        try unlockDataKey(dataKeyManager())
    }

    public var keyPinsPath: String {
        let settings = context.settings
        return KeyPins.pinsPath(home: settings.home, account: settings.account, device: settings.device,
                                container: settings.container)
    }
}
