import CloudSyncCore

/// A value of the ubiquitous key-value store (NSUbiquitousKeyValueStore's property-list types).
public enum KeyValue: Sendable, Hashable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case data([UInt8])
    /// Any JSON document (arrays and dictionaries).
    case json(JSONValue)

    /// The type name used on the command line and in storage.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .bool: "bool"
        case .data: "data"
        case .json: "json"
        }
    }

    /// The stored text of the value (base64 for data, JSON text for json).
    public var storedText: String {
        switch self {
        case .string(let s): s
        case .number(let d): JSONValue.double(d).serialized()
        case .bool(let b): b ? "true" : "false"
        case .data(let bytes): Base64.encode(bytes)
        case .json(let value): value.serialized()
        }
    }

    /// Bytes the value counts against the store's quota.
    public var size: Int {
        switch self {
        case .data(let bytes): bytes.count
        default: storedText.utf8.count
        }
    }

    /// Rebuilds a value from its type name and stored text.
    public init?(typeName: String, storedText: String) {
        switch typeName {
        case "string": self = .string(storedText)
        case "number":
            guard let d = Double(storedText), d.isFinite else { return nil }
            self = .number(d)
        case "bool":
            guard storedText == "true" || storedText == "false" else { return nil }
            self = .bool(storedText == "true")
        case "data":
            guard let bytes = Base64.decode(storedText) else { return nil }
            self = .data(bytes)
        case "json":
            guard let value = try? JSONValue.parse(storedText) else { return nil }
            self = .json(value)
        default: return nil
        }
    }

    /// The value as JSON, for `--json` output.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let d): .double(d)
        case .bool(let b): .bool(b)
        case .data(let bytes): .string(Base64.encode(bytes))
        case .json(let value): value
        }
    }
}

/// Apple's limits of NSUbiquitousKeyValueStore.
public enum KeyValueLimits {
    public static let maxKeys = 1024
    public static let maxTotalBytes = 1_048_576
    public static let maxValueBytes = 1_048_576
    public static let maxKeyBytes = 64

    /// Checks a key: 1 to 64 bytes of UTF-8.
    public static func validateKey(_ key: String) throws(CloudError) {
        guard !key.isEmpty, key.utf8.count <= maxKeyBytes else {
            throw CloudError(.quotaExceeded, "QuotaViolation: key \(NameRules.quoted(key)) is \(key.utf8.count) bytes; keys are 1 to \(maxKeyBytes) bytes of UTF-8")
        }
    }
}

/// One write: a value, or nil to delete the key.
public struct KeyValueWrite: Sendable, Hashable {
    public var key: String
    public var value: KeyValue?

    public init(key: String, value: KeyValue?) {
        self.key = key
        self.value = value
    }
}

/// A key's state in the cloud.
public struct KeyValueItem: Sendable, Hashable {
    public var key: String
    /// nil when the key was deleted.
    public var value: KeyValue?
    /// The cloud's timestamp of the write (ms): last writer wins by it.
    public var modified: Int64
    /// The device that wrote it.
    public var deviceID: String

    public init(key: String, value: KeyValue?, modified: Int64, deviceID: String) {
        self.key = key
        self.value = value
        self.modified = modified
        self.deviceID = deviceID
    }
}

/// Keys changed since a token.
public struct KeyValueChanges: Sendable {
    public var items: [KeyValueItem]
    public var token: ServerChangeToken

    public init(items: [KeyValueItem], token: ServerChangeToken) {
        self.items = items
        self.token = token
    }
}
