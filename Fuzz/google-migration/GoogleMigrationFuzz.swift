import CloudSyncCore
import CloudSyncOTP

// libFuzzer target: Google Authenticator's `otpauth-migration://offline?data=…` export (the
// protobuf decoder). An input starting with "otpauth-migration:" is parsed as a URI as it is;
// any other input is the raw protobuf payload, wrapped in a URI (base64, %-escaped) so the
// decoder sees the fuzzer's bytes. Checks: no crash; the tokens decoded make codes.

@_cdecl("LLVMFuzzerTestOneInput")
public func googleMigrationFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    let uri: String
    if text.lowercased().hasPrefix("otpauth-migration:") {
        uri = text
    } else {
        let base64 = Base64.encode(bytes).replacingPlusSlashEquals()
        uri = GoogleMigration.prefix + "?data=" + base64
    }
    guard let batch = try? GoogleMigration.parse(uri) else { return 0 }
    for case .success(let token) in batch.entries {
        _ = token.code(factor: token.kind == .hotp ? token.counter : 0)
    }
    return 0
}

extension String {
    /// Base64 with `+`, `/` and `=` %-escaped, as Google Authenticator writes it.
    func replacingPlusSlashEquals() -> String {
        var out = ""
        for character in self {
            switch character {
            case "+": out += "%2B"
            case "/": out += "%2F"
            case "=": out += "%3D"
            default: out.append(character)
            }
        }
        return out
    }
}
