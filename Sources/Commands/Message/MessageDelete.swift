import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync message delete ID`: the sender deletes; the recipient hides.
enum MessageDelete {
    static let spec = CommandSpec(
        name: "delete", abstract: "Delete a message you sent, or hide a message you received from your inbox.",
        discussion: "Only the sender can delete a message from the cloud. For the recipient, the message is hidden from `message inbox` on this device (it stays readable with `message read`).",
        arguments: [ArgumentSpec("id", help: "The message's record name (msg-…).")],
        examples: [
            Example("cloudsync message delete msg-0123abcd", "Delete it from the cloud if you sent it, else hide it here."),
        ],
        jsonOutput: MessageJSONOutput.delete,
        run: { context, arguments in
            let id = arguments.argument("id") ?? ""
            let session = try context.session()
            let envelope = try MessageRead.fetch(session, id)
            let me = session.account.userRecordName
            let action: String
            if envelope.creator == me {
                let request = session.request(.public)
                let result = try session.cloud.modifyRecords(
                    ModifyRequest(deletes: [RecordID(recordName: id, zoneID: request.zoneID(ZoneID.defaultZoneName))]), in: request)
                if let error = result.partialFailure { throw error }
                action = "deleted"
            } else if envelope.to == me {
                var hidden = try HiddenMessages(session: session)
                try hidden.hide(id)
                action = "hidden"
            } else {
                throw CLIError.permissionDenied("message \(id) is neither to nor from this account; only its sender can delete it")
            }
            if context.output.isJSON {
                context.output.json(.object([("messages", .array([.object([("id", .string(id)), ("deleted", .bool(true)), ("action", .string(action))])]))]))
            } else {
                context.output.line(action == "deleted" ? "deleted \(id)" : "hid \(id) from your inbox on this device (only its sender can delete it)")
            }
        })
}
