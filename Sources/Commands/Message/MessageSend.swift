import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncIdentity

/// `cloudsync message send ACCOUNT [TEXT | --file F | -]`.
enum MessageSend {
    static let spec = CommandSpec(
        name: "send", abstract: "Encrypt a message to an account and store it in the public database.",
        discussion: """
            Creates this account's identity on first use (which needs the data key: `keys unlock`). \
            The recipient must have published an identity (`keys identity`). Its key is pinned on \
            first use; if it later changes, sending is refused (exit 77) until `keys trust`.
            """,
        options: [OptionSpec("file", value: "FILE", help: "Send the bytes of FILE.", completion: .file)],
        arguments: [ArgumentSpec("account", help: "The recipient's login name, or its userRecordName."),
                    ArgumentSpec("text", help: "The message text, or - to read stdin.", optional: true)],
        examples: [
            Example("cloudsync message send bob 'lunch at noon?'", "Send a text to bob."),
            Example("cloudsync message send bob --file report.pdf", "Send a file's bytes."),
        ],
        jsonOutput: MessageJSONOutput.send,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let plaintext = try MessageInput.read(arguments)
        let session = try context.session()
        let store = IdentityStore(session: session)
        let name = arguments.argument("account") ?? ""
        // A note to self needs this account's identity before it can be looked up.
        if name == session.account.name { _ = try store.current() }
        let recipient = try store.published(account: name)
        let me = session.account
        if recipient.userRecordName != me.userRecordName {
            var pins = try KeyPins(session: session)
            if try pins.check(recipient) == .changed {
                throw IdentityError.keyChanged(account: name, pinned: pins.pinned(recipient.userRecordName) ?? "",
                                               published: recipient.fingerprint).cliError
            }
        }
        let sender = try store.current().key
        let recordName = MessageScheme.newRecordName()
        let toRecipient = try MessageScheme.seal(plaintext, recordName: recordName, to: recipient.publicKey, from: sender.privateKey)
        let toSelf = try MessageScheme.seal(plaintext, recordName: recordName, to: sender.publicKey, from: sender.privateKey)
        let request = session.request(.public)
        let zone = request.zoneID(ZoneID.defaultZoneName)
        let sentAt = systemClock()
        let record = Record(recordID: RecordID(recordName: recordName, zoneID: zone), recordType: MessageScheme.recordType, fields: [
            "to": .reference(Reference(recordID: RecordID(recordName: recipient.userRecordName, zoneID: zone))),
            "from": .reference(Reference(recordID: RecordID(recordName: me.userRecordName, zoneID: zone))),
            "sentAt": .timestamp(sentAt),
            "enc": .bytes(toRecipient.encapsulatedKey), "ciphertext": .bytes(toRecipient.ciphertext),
            "keyID": .string(recipient.fingerprint), "senderKeyID": .string(sender.fingerprint),
            "outboxEnc": .bytes(toSelf.encapsulatedKey), "outboxCiphertext": .bytes(toSelf.ciphertext),
        ])
        do {
            try ServiceRules.validateSize(record)
        } catch {
            throw MessageInput.tooLarge("the message")
        }
        let result = try session.cloud.modifyRecords(ModifyRequest(saves: [record]), in: request)
        if let error = result.partialFailure { throw error }
        if context.output.isJSON {
            context.output.json(.object([("id", .string(recordName)), ("to", .string(name)),
                                         ("toUserRecordName", .string(recipient.userRecordName)),
                                         ("sentAt", .int(sentAt)), ("size", .int(Int64(plaintext.count))),
                                         ("keyID", .string(recipient.fingerprint)), ("senderKeyID", .string(sender.fingerprint)),
                                         ("toDisplayName", recipient.user?.displayName.map { .string($0) } ?? .null)]))
        } else {
            context.output.line("sent \(recordName) to \(MessageText.label(name, recipient.user?.displayName)) (\(plaintext.count) bytes, encrypted)")
        }
    }
}
