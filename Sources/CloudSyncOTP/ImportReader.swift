import CloudSyncCore

/// Detects the format of an import file and reads it.
public enum ImportReader {
    /// The format of `bytes`, or nil when it is none this tool reads.
    public static func detect(_ bytes: [UInt8]) -> ImportFormat? {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        if OTPAuthURI.looksLikeURI(text) || GoogleMigration.looksLikeURI(text) { return .uris }
        guard let json = try? JSONValue.parse(text) else { return nil }
        if AegisVault.looksLikeVault(json) { return .aegis }
        if TwoFASBackup.looksLikeBackup(json) { return .twoFAS }
        if AndOTPBackup.looksLikeBackup(json) { return .andOTP }
        return nil
    }

    /// True when the file is a password-encrypted vault (so the caller can ask for the password).
    public static func needsPassword(_ bytes: [UInt8], format: ImportFormat) -> Bool {
        guard format == .aegis, let json = try? JSONValue.parse(bytes: bytes) else { return false }
        return AegisVault.isEncrypted(json)
    }

    /// Reads a file in `format` (detected when nil). Throws when the file as a whole is
    /// unusable (unknown format, damaged, wrong password); broken entries are `problems`.
    public static func read(_ bytes: [UInt8], format: ImportFormat? = nil, password: String? = nil) throws(OTPError) -> ImportContents {
        guard let format = format ?? detect(bytes) else {
            throw .invalidFile("unrecognized file: not otpauth URIs, an Aegis vault, a 2FAS backup or an andOTP JSON backup (encrypted andOTP backups are not read)")
        }
        if format == .uris {
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidFile("the file is not UTF-8 text") }
            return URIListImport.read(text)
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes: bytes)
        } catch {
            throw .invalidFile("the \(format.displayName) is not valid JSON: \(error)")
        }
        switch format {
        case .aegis: return try AegisVault.read(json, password: password)
        case .twoFAS: return try TwoFASBackup.read(json)
        case .andOTP: return try AndOTPBackup.read(json)
        case .uris: return URIListImport.read(String(decoding: bytes, as: UTF8.self))
        }
    }
}
