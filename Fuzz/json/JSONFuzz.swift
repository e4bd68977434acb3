import CloudSyncCore

// libFuzzer target: the JSON parser (every `--fields-json`, KV value, import file and stored
// record goes through it). Checks: no crash; whatever parses serializes to text that parses
// back to an equal value, compact and pretty-printed alike.

@_cdecl("LLVMFuzzerTestOneInput")
public func jsonFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONValue.parse(bytes: bytes) else { return 0 }
    let compact = value.serialized()
    guard let again = try? JSONValue.parse(compact), again == value else {
        fatalError("serialized JSON does not parse back to the same value: \(compact)")
    }
    guard let pretty = try? JSONValue.parse(value.prettyPrinted()), pretty == value else {
        fatalError("pretty-printed JSON does not parse back to the same value: \(compact)")
    }
    return 0
}
