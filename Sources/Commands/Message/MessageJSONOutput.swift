import CloudSyncCLI
import CloudSyncSession

/// What the message commands print with --json (the man page's JSON OUTPUT section).
enum MessageJSONOutput {
    static let send = JSONOutput.document("The message sent.", [("id", "Its record name (msg-...)."), ("to", "The recipient."), ("toUserRecordName", "Its user record name."), ("sentAt", "Milliseconds since the epoch."), ("size", "Plaintext bytes."), ("keyID", "The recipient key's fingerprint."), ("senderKeyID", "The sender key's fingerprint."), ("toDisplayName", "The recipient's display name, or null.")])
    static let inbox = JSONOutput.document("The messages, oldest first.", [("messages", "[{id, from, fromUserRecordName, to, toUserRecordName, fromDisplayName?, toDisplayName?, sentAt, authenticated, size, text or dataBase64}]; one that could not be authenticated has status and reason instead of its content.")])
    static let outbox = JSONOutput.document("The messages sent, oldest first.", [("messages", "As for inbox.")])
    static let read = JSONOutput.document("One message.", [("id", "Its record name."), ("from", "The sender."), ("fromUserRecordName", "Its user record name."), ("to", "The recipient."), ("toUserRecordName", "Its user record name."), ("?fromDisplayName", "The sender's display name, when set."), ("?toDisplayName", "The recipient's display name, when set."), ("sentAt", "Milliseconds since the epoch."), ("authenticated", "Whether it could be authenticated."), ("?size", "Plaintext bytes."), ("?text", "The text, when UTF-8 and no --output."), ("?dataBase64", "The bytes, when not UTF-8 and no --output."), ("?status", "When not authenticated."), ("?reason", "Why not.")])
    static let delete = JSONOutput.document("The deleted message, in the list 'message inbox' prints.", [("messages", "[{id, deleted: true, action}]: action deleted (from the cloud, as its sender) or hidden (on this device, as its recipient).")])
}
