import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncDevice

/// Messages the recipient hid from their inbox on this device (only the sender can delete a
/// message): a JSON array of record names in
/// `$CLOUDSYNC_HOME/messages/<account>/<device>/<container>.hidden` (0600).
struct HiddenMessages {
    let path: String
    private(set) var ids: Set<String>

    init(session: CloudSession) throws {
        let settings = session.context.settings
        path = "\(settings.home)/messages/\(settings.account)/\(settings.device)/\(settings.container).hidden"
        ids = []
        guard let text = try SecretFile.read(path) else { return }
        guard let items = (try? JSONValue.parse(text))?.arrayValue else {
            throw CLIError.badInput("the hidden-messages file \(path) is damaged; remove it to show every message again")
        }
        ids = Set(items.compactMap(\.stringValue))
    }

    mutating func hide(_ id: String) throws {
        ids.insert(id)
        try SecretFile.write(path, JSONValue.array(ids.sorted().map { .string($0) }).serialized())
    }
}
