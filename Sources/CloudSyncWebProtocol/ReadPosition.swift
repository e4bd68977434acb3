/// A position in the primary's write-ahead log (issue 28): what a reply of a server with read
/// replicas reflects, carried in the `X-CloudSync-Position` header both ways. Its text is
/// PostgreSQL's `pg_lsn` form, two hexadecimal halves (`16/B374D848`); its value the byte offset.
/// Positions only grow, so a client keeps the highest it has seen.
public struct ReadPosition: Sendable, Hashable, Comparable {
    /// The byte offset in the write-ahead log.
    public var offset: UInt64

    public init(offset: UInt64) {
        self.offset = offset
    }

    /// Parses `HIGH/LOW` (1 to 8 hex digits each); nil for anything else.
    public init?(text: String) {
        let halves = text.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2, let high = Self.half(halves[0]), let low = Self.half(halves[1]) else { return nil }
        offset = high << 32 | low
    }

    private static func half(_ text: Substring) -> UInt64? {
        guard (1...8).contains(text.count), text.allSatisfy(\.isHexDigit) else { return nil }
        return UInt64(text, radix: 16)
    }

    /// `HIGH/LOW` in upper-case hex, as PostgreSQL writes a `pg_lsn`.
    public var text: String {
        String(offset >> 32, radix: 16, uppercase: true) + "/" + String(offset & 0xFFFF_FFFF, radix: 16, uppercase: true)
    }

    public static func < (lhs: ReadPosition, rhs: ReadPosition) -> Bool { lhs.offset < rhs.offset }
}
