/// The scalar type of a record field, named as in CloudKit Web Services.
public enum FieldType: String, Sendable, Hashable, CaseIterable {
    case string = "STRING"
    case int64 = "INT64"
    case double = "DOUBLE"
    case timestamp = "TIMESTAMP"
    case bytes = "BYTES"
    case reference = "REFERENCE"
    case location = "LOCATION"
    case asset = "ASSETID"
    /// Ciphertext of a field encrypted on the device (CloudKit's `encryptedValues`); the cloud
    /// stores it and never sees the plaintext.
    case encryptedBytes = "ENCRYPTED_BYTES"
}

/// The full type of a field value: a scalar type or a list of one.
public struct FieldTypeName: Sendable, Hashable, CustomStringConvertible {
    public var element: FieldType
    public var isList: Bool

    public init(_ element: FieldType, isList: Bool = false) {
        self.element = element
        self.isList = isList
    }

    /// Parses `STRING`, `INT64_LIST`, … (case-insensitive).
    public init?(_ text: String) {
        // Every field of every decoded record comes through here, almost always spelled as the
        // writers spell it: matched as it is first, without uppercasing.
        if let exact = FieldTypeName.exactly(text) {
            self = exact
            return
        }
        var name = text.uppercased()
        var list = false
        if name.hasSuffix("_LIST") {
            list = true
            name.removeLast(5)
        }
        guard let element = FieldType(rawValue: name) else { return nil }
        self.init(element, isList: list)
    }

    /// The type named exactly as `description` writes it, or nil.
    static func exactly(_ text: String) -> FieldTypeName? {
        switch text {
        case "STRING": FieldTypeName(.string)
        case "INT64": FieldTypeName(.int64)
        case "DOUBLE": FieldTypeName(.double)
        case "TIMESTAMP": FieldTypeName(.timestamp)
        case "BYTES": FieldTypeName(.bytes)
        case "REFERENCE": FieldTypeName(.reference)
        case "LOCATION": FieldTypeName(.location)
        case "ASSETID": FieldTypeName(.asset)
        case "ENCRYPTED_BYTES": FieldTypeName(.encryptedBytes)
        case "STRING_LIST": FieldTypeName(.string, isList: true)
        case "INT64_LIST": FieldTypeName(.int64, isList: true)
        case "DOUBLE_LIST": FieldTypeName(.double, isList: true)
        case "TIMESTAMP_LIST": FieldTypeName(.timestamp, isList: true)
        case "BYTES_LIST": FieldTypeName(.bytes, isList: true)
        case "REFERENCE_LIST": FieldTypeName(.reference, isList: true)
        case "LOCATION_LIST": FieldTypeName(.location, isList: true)
        case "ASSETID_LIST": FieldTypeName(.asset, isList: true)
        case "ENCRYPTED_BYTES_LIST": FieldTypeName(.encryptedBytes, isList: true)
        default: nil
        }
    }

    public var description: String { element.rawValue + (isList ? "_LIST" : "") }
}

/// What happens to a record that holds a reference when the referenced record is deleted.
public enum ReferenceAction: String, Sendable, Hashable {
    case none = "NONE"
    case deleteSelf = "DELETE_SELF"
}

/// A reference to another record (CKRecord.Reference).
public struct Reference: Sendable, Hashable {
    public var recordID: RecordID
    public var action: ReferenceAction

    public init(recordID: RecordID, action: ReferenceAction = .none) {
        self.recordID = recordID
        self.action = action
    }
}

/// A location (CLLocation's fields as CloudKit Web Services encodes them).
public struct Location: Sendable, Hashable {
    public var latitude: Double
    public var longitude: Double
    public var horizontalAccuracy: Double?
    public var verticalAccuracy: Double?
    public var altitude: Double?
    public var speed: Double?
    public var course: Double?
    /// Milliseconds since the epoch.
    public var timestamp: Int64?

    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double? = nil,
                verticalAccuracy: Double? = nil, altitude: Double? = nil, speed: Double? = nil,
                course: Double? = nil, timestamp: Int64? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.timestamp = timestamp
    }
}

/// A reference to an asset: a file stored by the cloud by checksum.
public struct AssetReference: Sendable, Hashable {
    /// Lowercase hex SHA-256 of the content.
    public var checksum: String
    public var size: Int64

    public init(checksum: String, size: Int64) {
        self.checksum = checksum
        self.size = size
    }
}

/// The value of one record field.
public indirect enum FieldValue: Sendable, Hashable {
    case string(String)
    case int64(Int64)
    case double(Double)
    /// Milliseconds since the epoch.
    case timestamp(Int64)
    case bytes([UInt8])
    case reference(Reference)
    case location(Location)
    case asset(AssetReference)
    /// A sealed box made on a device (see `FieldType.encryptedBytes`).
    case encryptedBytes([UInt8])
    /// A homogeneous list; `element` is the type of every item (kept for empty lists).
    case list(FieldType, [FieldValue])

    /// The type of this value.
    public var typeName: FieldTypeName {
        switch self {
        case .string: FieldTypeName(.string)
        case .int64: FieldTypeName(.int64)
        case .double: FieldTypeName(.double)
        case .timestamp: FieldTypeName(.timestamp)
        case .bytes: FieldTypeName(.bytes)
        case .reference: FieldTypeName(.reference)
        case .location: FieldTypeName(.location)
        case .asset: FieldTypeName(.asset)
        case .encryptedBytes: FieldTypeName(.encryptedBytes)
        case .list(let element, _): FieldTypeName(element, isList: true)
        }
    }

    /// False for a DOUBLE (or a list holding one) that is infinite or NaN: JSON cannot carry
    /// those, so the cloud refuses them.
    public var isFinite: Bool {
        switch self {
        case .double(let d): d.isFinite
        case .location(let l): l.latitude.isFinite && l.longitude.isFinite
        case .list(_, let items): items.allSatisfy(\.isFinite)
        default: true
        }
    }

    /// A size estimate in bytes, used for CloudKit's 1 MB record limit.
    public var estimatedSize: Int {
        switch self {
        case .string(let s): s.utf8.count
        case .int64, .double, .timestamp: 8
        case .bytes(let b): b.count
        case .reference(let r): r.recordID.recordName.utf8.count + r.recordID.zoneID.zoneName.utf8.count + 40
        case .location: 64
        case .asset: 80
        case .encryptedBytes(let b): b.count
        case .list(_, let items): items.reduce(8) { $0 + $1.estimatedSize }
        }
    }
}
