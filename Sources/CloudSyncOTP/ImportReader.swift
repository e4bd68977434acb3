import CloudSyncCore

/// Detects the format of an import file and reads it.
public enum ImportReader {
    /// The format of `bytes`, or nil when it is none this tool reads.
    public static func detect(_ bytes: [UInt8]) -> ImportFormat? {
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        // A URI list may start with `#` comment lines (and blank ones).
        let firstLine = text.split(separator: "\n").lazy.map { String($0).trimmingWhitespace() }
            .first { !$0.isEmpty && !$0.hasPrefix("#") } ?? ""
        if OTPAuthURI.looksLikeURI(firstLine) || GoogleMigration.looksLikeURI(firstLine) { return .uris }
        guard let json = try? JSONValue.parse(text) else { return nil }
        if AegisVault.looksLikeVault(json) { return .aegis }
        if TwoFASBackup.looksLikeBackup(json) { return .twoFAS }
        if AndOTPBackup.looksLikeBackup(json) { return .andOTP }
        if URIExportBackup.looksLikeBitwarden(json) { return .bitwarden }
        if URIExportBackup.looksLikeProton(json) { return .proton }
        return nil
    }

    /// The error for a file of no known format: what it looks like and what is read.
    public static func unrecognized(_ bytes: [UInt8]) -> String {
        "unrecognized file: it looks like \(lookalike(bytes)); cloudsync reads otpauth URIs, Aegis vaults, and the JSON of "
            + "2FAS, andOTP (plain), Bitwarden (plain) and Proton Authenticator"
    }

    /// What an unreadable file looks like, in words, for the error that refuses it.
    static func lookalike(_ bytes: [UInt8]) -> String {
        if bytes.starts(with: Array("SQLite format 3".utf8)) { return "an SQLite database (export a backup file from the app instead)" }
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self).trimmingWhitespace()
        if text.hasPrefix("<") { return "an XML or HTML file" }
        if bytes.starts(with: [0x50, 0x4b, 0x03, 0x04]) { return "a ZIP archive (unpack it first)" }
        if String(validating: bytes, as: UTF8.self) == nil {
            return "binary data, perhaps an encrypted backup (export it again without a password)"
        }
        if (try? JSONValue.parse(bytes: bytes)) != nil { return "JSON of a shape this tool does not know" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "damaged JSON" }
        return "text without otpauth:// URIs"
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
            throw .invalidFile(unrecognized(bytes))
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
        case .bitwarden: return try URIExportBackup.readBitwarden(json)
        case .proton: return try URIExportBackup.readProton(json)
        case .uris: return URIListImport.read(String(decoding: bytes, as: UTF8.self))
        }
    }
}
