import CloudSyncOTP

// libFuzzer target: `otpauth://` key URIs (`otp add --uri`, URI-list imports, QR payloads).
// Checks: no crash; a parsed token makes codes (its first HOTP/TOTP steps) and formats to a URI
// that parses back to a token making the same codes.

@_cdecl("LLVMFuzzerTestOneInput")
public func otpAuthFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let token = try? OTPAuthURI.parse(text) else { return 0 }
    _ = token.code(factor: token.kind == .hotp ? token.counter : 0)
    _ = token.step(atUnixSeconds: 1_700_000_000)
    let uri = OTPAuthURI.format(token)
    guard let again = try? OTPAuthURI.parse(uri) else { fatalError("a formatted token does not parse: \(uri)") }
    if !again.makesSameCodes(as: token) { fatalError("a formatted token makes other codes: \(uri)") }
    return 0
}
