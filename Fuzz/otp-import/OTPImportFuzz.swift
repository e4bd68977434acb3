import CloudSyncCore
import CloudSyncOTP

// libFuzzer target: `otp import` (ImportReader: format detection, then the Aegis, 2FAS, andOTP
// or URI-list reader), with the password "test" for encrypted Aegis vaults. The first byte picks
// the format (detected, or forced to one reader); the rest is the file. Encrypted vaults whose
// key slots together ask for more scrypt work than a tiny budget are skipped (and rejected from
// the corpus): the bound on real vaults is the reader's job, tested elsewhere, and a fuzzer
// must spend its time on parsing, not on key derivation.

/// The most scrypt work (sum over password slots of N·r·p) an input may ask for.
let scryptBudget: Int64 = 1 << 12

@_cdecl("LLVMFuzzerTestOneInput")
public func otpImportFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let formats: [ImportFormat?] = [nil, .aegis, .twoFAS, .andOTP, .uris]
    let format = formats[Int(selector) % formats.count]
    if !withinScryptBudget(bytes) { return -1 }
    _ = ImportReader.detect(bytes)
    if let format { _ = ImportReader.needsPassword(bytes, format: format) }
    guard let contents = try? ImportReader.read(bytes, format: format, password: "test") else { return 0 }
    for token in contents.tokens {
        _ = token.code(factor: token.kind == .hotp ? token.counter : 0)
    }
    return 0
}

/// False when the input's Aegis password slots ask for more scrypt work than `scryptBudget`.
func withinScryptBudget(_ bytes: [UInt8]) -> Bool {
    guard let json = try? JSONValue.parse(bytes: bytes), let slots = json["header"]?["slots"]?.arrayValue else {
        return true
    }
    var work: Int64 = 0
    for slot in slots {
        let n = slot["n"]?.int64Value ?? 0, r = slot["r"]?.int64Value ?? 0, p = slot["p"]?.int64Value ?? 0
        guard (0...scryptBudget).contains(n), (0...scryptBudget).contains(r), (0...scryptBudget).contains(p) else {
            return false
        }
        work += n * r * p
        if work > scryptBudget { return false }
    }
    return true
}
