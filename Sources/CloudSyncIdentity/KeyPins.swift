import CloudSyncCore
import CloudSyncDevice

/// The fingerprints this device trusts for other accounts (TOFU pins), kept in the 0600 file
/// `$CLOUDSYNC_HOME/keys/<account>/<device>/<container>.pins` (`pinsPath`): a JSON object from each
/// userRecordName to the fingerprints trusted for it, the latest last. The first key seen of an
/// account is pinned; a different published key is refused for sending, and flagged, until
/// `keys trust`. Messages sealed with any key once trusted still authenticate; first sight also
/// trusts the previous keys the owner publishes.
public struct KeyPins {
    /// The pin file.
    public let path: String
    var pins: [String: [String]]

    /// Reads the pins of this session's account and device (`IdentityContext.keyPinsPath`).
    public init(session: any IdentityContext) throws {
        try self.init(path: session.keyPinsPath)
    }

    /// Reads the pins kept in `path` (none yet when it does not exist).
    public init(path: String) throws {
        self.path = path
        pins = [:]
        guard let text = try SecretFile.read(path) else { return }
        guard let json = try? JSONValue.parse(text), case .object(let members) = json else {
            throw IdentityError.pinsDamaged(path: path)
        }
        for (user, value) in members {
            pins[user] = value.arrayValue?.compactMap(\.stringValue) ?? []
        }
    }

    /// Where the pins of one account's device live for one container, under the home folder.
    public static func pinsPath(home: String, account: String, device: String, container: String) -> String {
        "\(home)/keys/\(account)/\(device)/\(container).pins"
    }

    /// The fingerprint pinned for `userRecordName`, if any.
    public func pinned(_ userRecordName: String) -> String? { pins[userRecordName]?.last }

    /// Whether `fingerprint` was ever trusted for `userRecordName`.
    public func trusts(_ fingerprint: String, for userRecordName: String) -> Bool {
        pins[userRecordName]?.contains(fingerprint) ?? false
    }

    /// Pins `fingerprint` as the current key of `userRecordName` and saves the file.
    public mutating func pin(_ fingerprint: String, for userRecordName: String) throws {
        var list = pins[userRecordName] ?? []
        list.removeAll { $0 == fingerprint }
        list.append(fingerprint)
        pins[userRecordName] = list
        let json = JSONValue.object(pins.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map { .string($0) })) })
        try SecretFile.write(path, json.serialized())
    }

    /// How a published key stands against the pins.
    public enum Standing: String, Sendable {
        /// Seen now for the first time, and pinned.
        case pinnedNow = "pinned-now"
        /// The pinned key.
        case trusted
        /// Not the pinned key: refused for sending until `keys trust`.
        case changed
    }

    /// Checks `identity` against the pins, pinning it on first sight (TOFU).
    public mutating func check(_ identity: PublishedIdentity) throws -> Standing {
        guard let pinned = pinned(identity.userRecordName) else {
            // First sight trusts what the owner publishes: its key and the keys it rotated away
            // from (so its older messages authenticate too); the current key is pinned last.
            var list = identity.previousKeys.map(Identity.fingerprint)
            list.removeAll { $0 == identity.fingerprint }
            pins[identity.userRecordName] = list
            try pin(identity.fingerprint, for: identity.userRecordName)
            return .pinnedNow
        }
        return pinned == identity.fingerprint ? .trusted : .changed
    }
}
