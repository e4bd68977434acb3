import CloudSyncCLI
import CloudSyncSession
import CloudSyncIdentity
import CloudSyncCore

/// How messages show: one summary line, or JSON.
enum MessageText {
    static let unauthenticated = "could not be authenticated"

    /// `2026-01-31T12:00:00.000Z  msg-…  from Alice Liddell (alice): first line …` (data escaped by Output). The
    /// first line is cut to the terminal's width only when stdout is one (`Output.fitted`).
    static func summary(_ message: OpenedMessage, outbox: Bool, output: Output) -> TerminalText {
        let time = ISO8601.format(milliseconds: message.envelope.sentAt)
        let who = outbox ? "to \(label(message.toName, message.toDisplayName))" : "from \(label(message.fromName, message.fromDisplayName))"
        let head: TerminalText = "\(time)  \(message.envelope.id)  \(who): "
        guard let plaintext = message.plaintext else {
            return "\(head)\(.text(unauthenticated))"
        }
        return "\(head)\(output.fitted(preview(plaintext), after: head.plain.count))"
    }

    /// How a correspondent shows: `Bob Builder (bob)` with a display name, else the login.
    static func label(_ name: String, _ displayName: String?) -> String {
        displayName.map { "\($0) (\(name))" } ?? name
    }

    /// The first line, followed by ` …` when more lines follow, or `[N bytes]` for data that
    /// is not UTF-8 text.
    static func preview(_ plaintext: [UInt8]) -> String {
        guard let text = String(validating: plaintext, as: UTF8.self) else { return "[\(plaintext.count) bytes]" }
        let first = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return first + (first.count < text.count ? " …" : "")
    }

    /// The message as JSON: `text` when the plaintext is UTF-8, else `dataBase64`; nothing of
    /// the content when it could not be authenticated.
    static func json(_ message: OpenedMessage, withContent: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(message.envelope.id)),
            ("from", .string(message.fromName)), ("fromUserRecordName", .string(message.envelope.from)),
            ("to", .string(message.toName)), ("toUserRecordName", .string(message.envelope.to)),
            ("sentAt", .int(message.envelope.sentAt)),
            ("authenticated", .bool(message.plaintext != nil)),
        ]
        if let name = message.fromDisplayName { members.append(("fromDisplayName", .string(name))) }
        if let name = message.toDisplayName { members.append(("toDisplayName", .string(name))) }
        if let plaintext = message.plaintext {
            members.append(("size", .int(Int64(plaintext.count))))
            if withContent {
                if let text = String(validating: plaintext, as: UTF8.self) {
                    members.append(("text", .string(text)))
                } else {
                    members.append(("dataBase64", .string(Base64.encode(plaintext))))
                }
            }
        } else {
            members.append(("status", .string(unauthenticated)))
            if let problem = message.problem { members.append(("reason", .string(problem))) }
        }
        return .object(members)
    }
}
