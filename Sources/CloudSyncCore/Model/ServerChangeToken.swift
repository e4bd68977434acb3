/// An opaque server cursor (CKServerChangeToken), per database or per zone. Clients store it
/// and hand it back; only the backend that made it can read it.
public struct ServerChangeToken: Sendable, Hashable, CustomStringConvertible {
    /// The base64url text of the token.
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
