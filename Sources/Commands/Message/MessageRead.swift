import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncIdentity
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync message read ID`.
enum MessageRead {
    static let spec = CommandSpec(
        name: "read", abstract: "Print one message (as its recipient, or from the sender's outbox copy).",
        discussion: "Text is printed with control characters escaped; data that is not UTF-8 text needs --output FILE. A message that could not be authenticated exits 65 and shows nothing of its content.",
        options: [OptionSpec("output", value: "FILE", help: "Write the plaintext bytes to FILE (created 0600).", completion: .file)],
        arguments: [ArgumentSpec("id", help: "The message's record name (msg-…).")],
        examples: [
            Example("cloudsync message read msg-0123abcd", "Print the message msg-0123abcd."),
            Example("cloudsync message read msg-0123abcd --output report.pdf", "Write a message's bytes to a file."),
        ],
        jsonOutput: MessageJSONOutput.read,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let id = arguments.argument("id") ?? ""
        let session = try context.session()
        let envelope = try fetch(session, id)
        let me = session.account.userRecordName
        guard envelope.to == me || envelope.creator == me else {
            throw CLIError.permissionDenied("message \(id) is neither to nor from this account")
        }
        let opener = try MessageOpener(session: session)
        let message = opener.open(envelope, asSender: envelope.to != me)
        guard let plaintext = message.plaintext else {
            throw CLIError.badInput("message \(id) \(MessageText.unauthenticated): \(message.problem ?? "")")
        }
        if let path = arguments.value("output") {
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw CLIError.failed("cannot create \(path): \(String(cString: strerror(errno)))") }
            let written = plaintext.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard written == plaintext.count else { throw CLIError.failed("cannot write \(path)") }
        }
        if context.output.isJSON {
            context.output.json(MessageText.json(message, withContent: arguments.value("output") == nil))
            return
        }
        context.output.line("from:    \(MessageText.label(message.fromName, message.fromDisplayName))")
        context.output.line("to:      \(MessageText.label(message.toName, message.toDisplayName))")
        context.output.line("sent:    \(ISO8601.format(milliseconds: envelope.sentAt))")
        if let path = arguments.value("output") {
            context.output.line("wrote \(plaintext.count) bytes to \(path)")
        } else if let text = String(validating: plaintext, as: UTF8.self) {
            context.output.line("")
            context.output.line("\(text)")
        } else {
            context.output.line("(\(plaintext.count) bytes of data that is not text; use --output FILE)")
        }
    }

    /// The Message record `id`, or not found (3).
    static func fetch(_ session: CloudSession, _ id: String) throws -> MessageEnvelope {
        guard (try? NameRules.validateRecordName(id)) != nil else { throw CLIError.notFound("no message \(id)") }
        let recordID = RecordID(recordName: id, zoneID: session.request(.public).zoneID(ZoneID.defaultZoneName))
        guard let record = try IdentityStore.fetch(session, recordID, scope: .public),
              record.recordType == MessageScheme.recordType else {
            throw CLIError.notFound("no message \(id)")
        }
        return MessageEnvelope(record)
    }
}
