import CloudSyncCore

// libFuzzer target: stored-field decoding (`RecordJSON.decodeFields(bytes:)`, the one-pass
// reader of every cached, pulled and fetched record). Checks: no crash; the one-pass path gives
// what the general path (`decodeFields(JSONValue.parse(…))`) gives, as documented; what decodes
// is written back by `fieldsText` byte for byte as `encode(fields:).serialized()`, and reads back.

@_cdecl("LLVMFuzzerTestOneInput")
public func storedFieldsFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let fast = try? RecordJSON.decodeFields(bytes: bytes)
    let general: [String: FieldValue]? = {
        guard let json = try? JSONValue.parse(bytes: bytes) else { return nil }
        return try? RecordJSON.decodeFields(json)
    }()
    if fast != general {
        fatalError("decodeFields(bytes:) disagrees with the general path on \(String(decoding: bytes, as: UTF8.self))")
    }
    guard let fields = fast else { return 0 }
    let text = RecordJSON.fieldsText(fields)
    if text != RecordJSON.encode(fields: fields).serialized() {
        fatalError("fieldsText differs from encode(fields:).serialized() for \(text)")
    }
    guard (try? RecordJSON.decodeFields(bytes: Array(text.utf8))) != nil else {
        fatalError("fieldsText output does not decode: \(text)")
    }
    return 0
}
