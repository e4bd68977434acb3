/// The scope of a CloudKit database: each account sees one private, one shared and one public
/// database per container.
public enum DatabaseScope: String, Sendable, Hashable, CaseIterable, Codable {
    case `private`
    case shared
    case `public`

    /// Parses `private`, `shared` or `public` (case-insensitive).
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }
}

/// Identifies a record zone: a zone name within the database of its owner.
public struct ZoneID: Sendable, Hashable, CustomStringConvertible {
    /// The name of the zone that every database has and that can never be deleted.
    public static let defaultZoneName = "_defaultZone"
    /// The placeholder owner name meaning "the current user" in requests.
    public static let currentUserOwner = "__defaultOwner__"

    public var zoneName: String
    public var ownerRecordName: String

    public init(zoneName: String, ownerRecordName: String) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    /// True for `_defaultZone`.
    public var isDefaultZone: Bool { zoneName == ZoneID.defaultZoneName }

    public var description: String { "\(zoneName):\(ownerRecordName)" }
}

/// Identifies a record: a record name within a zone.
public struct RecordID: Sendable, Hashable, CustomStringConvertible {
    public var recordName: String
    public var zoneID: ZoneID

    public init(recordName: String, zoneID: ZoneID) {
        self.recordName = recordName
        self.zoneID = zoneID
    }

    public var description: String { "\(recordName)@\(zoneID.zoneName)" }
}

/// Validation rules for names that users type (zone names, record names, record types, fields).
public enum NameRules {
    /// Maximum length of a record name, as CloudKit.
    public static let maxRecordNameLength = 255
    /// Maximum length of a zone name, record type or field name.
    public static let maxIdentifierLength = 255

    /// Checks a record name: 1-255 bytes of printable ASCII without spaces.
    public static func validateRecordName(_ name: String) throws(CloudError) {
        guard !name.isEmpty, name.utf8.count <= maxRecordNameLength else {
            throw CloudError(.invalidArguments, "record name must be 1 to \(maxRecordNameLength) bytes, got \(name.utf8.count)")
        }
        guard name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw CloudError(.invalidArguments, "record name \(quoted(name)) must be printable ASCII without spaces")
        }
    }

    /// Checks a zone name: 1-255 characters of letters, digits, `.`, `-`, `_`; only
    /// `_defaultZone` may start with `_`.
    public static func validateZoneName(_ name: String) throws(CloudError) {
        guard !name.isEmpty, name.utf8.count <= maxIdentifierLength else {
            throw CloudError(.invalidArguments, "zone name must be 1 to \(maxIdentifierLength) bytes")
        }
        guard name.unicodeScalars.allSatisfy({ isWordScalar($0) || $0 == "." || $0 == "-" }) else {
            throw CloudError(.invalidArguments, "zone name \(quoted(name)) may hold only letters, digits, '.', '-' and '_'")
        }
        if name.hasPrefix("_") && name != ZoneID.defaultZoneName {
            throw CloudError(.invalidArguments, "zone name \(quoted(name)) must not start with '_' (reserved)")
        }
    }

    /// Checks a record type or field name: starts with a letter, then letters, digits and `_`.
    public static func validateIdentifier(_ name: String, kind: String) throws(CloudError) {
        // Every name a record carries passes here (each field of each record pushed, pulled or
        // fetched): checked on its UTF-8 bytes when they are contiguous, the same rule (only
        // ASCII can pass, so a byte of 0x80 or more fails as its scalar would).
        let valid = name.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard let first = bytes.first, bytes.count <= maxIdentifierLength, isASCIILetter(first) else { return false }
            return bytes.allSatisfy(isWordByte)
        }
        if valid == true { return }
        guard let first = name.unicodeScalars.first, name.utf8.count <= maxIdentifierLength else {
            throw CloudError(.invalidArguments, "\(kind) must be 1 to \(maxIdentifierLength) bytes")
        }
        guard isASCIILetter(first), name.unicodeScalars.allSatisfy(isWordScalar) else {
            throw CloudError(.invalidArguments,
                             "\(kind) \(quoted(name)) must start with a letter and hold only letters, digits and '_'")
        }
    }

    /// The prefix of every container identifier.
    public static let containerPrefix = "iCloud."

    /// Checks a container identifier: `iCloud.` then dot-separated labels of ASCII letters,
    /// digits, `-` and `_` (`iCloud.com.example.App`), at most 255 bytes. Container identifiers
    /// name files (the data key's), so nothing else may pass.
    public static func validateContainerIdentifier(_ identifier: String) throws(CloudError) {
        let rule = "use iCloud. followed by dot-separated letters, digits, '-' and '_', e.g. iCloud.com.example.App"
        guard identifier.hasPrefix(containerPrefix), identifier.utf8.count <= maxIdentifierLength else {
            throw CloudError(.invalidArguments, "invalid container \(quoted(identifier)): \(rule)")
        }
        let labels = identifier.dropFirst(containerPrefix.count).split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { isWordScalar($0) || $0 == "-" } }) else {
            throw CloudError(.invalidArguments, "invalid container \(quoted(identifier)): \(rule)")
        }
    }

    static func isASCIILetter(_ s: Unicode.Scalar) -> Bool { s.isASCII && isASCIILetter(UInt8(s.value)) }

    static func isASCIILetter(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }

    static func isWordByte(_ b: UInt8) -> Bool {
        isASCIILetter(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "_")
    }

    static func isWordScalar(_ s: Unicode.Scalar) -> Bool { s.isASCII && isWordByte(UInt8(s.value)) }

    /// Quotes a user-supplied string for an error message.
    public static func quoted(_ s: String) -> String {
        "'" + String(s.prefix(80)) + (s.count > 80 ? "…" : "") + "'"
    }
}
