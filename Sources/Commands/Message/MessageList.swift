import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncIdentity

/// `cloudsync message inbox` and `message outbox`: queries on `to`/`from`, sorted by `sentAt`.
enum MessageList {
    static let listOptions = [
        OptionSpec("since", value: "TIME", help: "Only messages sent after TIME (ISO 8601, @epoch-seconds or epoch milliseconds)."),
        OptionSpec("limit", value: "N", help: "Only the N most recent messages."),
    ]

    static let inbox = CommandSpec(
        name: "inbox", abstract: "List the messages sent to this account, oldest first.",
        discussion: "Messages that could not be authenticated are listed as such, without content; the others still list. Messages hidden with `message delete` on this device are left out.",
        options: listOptions,
        examples: [
            Example("cloudsync message inbox --since 2026-01-01T00:00:00Z", "Messages sent since the new year."),
            Example("cloudsync message inbox --limit 5 --json", "The five most recent, with their text, as JSON."),
        ],
        jsonOutput: MessageJSONOutput.inbox,
        run: { context, arguments in try list(context, arguments, outbox: false) })

    static let outbox = CommandSpec(
        name: "outbox", abstract: "List the messages this account sent, oldest first (from the sender's own sealed copy).",
        options: listOptions,
        examples: [
            Example("cloudsync message outbox --limit 5", "The five messages this account sent last."),
        ],
        jsonOutput: MessageJSONOutput.outbox,
        run: { context, arguments in try list(context, arguments, outbox: true) })

    static func list(_ context: CommandContext, _ arguments: ParsedArguments, outbox: Bool) throws {
        var predicates: [Predicate] = []
        if let since = arguments.value("since") {
            guard let ms = TimeInput.milliseconds(from: since) else {
                throw CLIError.usage("--since takes \(TimeInput.forms), not '\(since)'")
            }
            predicates.append(.comparison("sentAt", .greater, .timestamp(ms)))
        }
        var limit: Int?
        if let text = arguments.value("limit") {
            guard let n = Int(text), n > 0 else { throw CLIError.usage("--limit takes a positive number, not '\(text)'") }
            limit = n
        }
        let session = try context.session()
        let me = session.account.userRecordName
        predicates.append(.comparison(outbox ? "from" : "to", .equal, .string(me)))
        let records = try IdentityStore.queryAll(session, MessageScheme.recordType, .and(predicates),
                                                 sort: [SortDescriptor("sentAt")], scope: .public)
        let hidden = outbox ? [] : try HiddenMessages(session: session).ids
        var envelopes = records.map(MessageEnvelope.init).filter { !hidden.contains($0.id) }
        if let limit, envelopes.count > limit { envelopes = Array(envelopes.suffix(limit)) }
        let opener = try MessageOpener(session: session)
        let opened = envelopes.map { opener.open($0, asSender: outbox) }
        if context.output.isJSON {
            context.output.json(.object([("messages", .array(opened.map { MessageText.json($0, withContent: true) }))]))
            return
        }
        if opened.isEmpty { context.output.info(outbox ? "no messages sent" : "no messages"); return }
        for message in opened { context.output.line(MessageText.summary(message, outbox: outbox, output: context.output)) }
    }
}
