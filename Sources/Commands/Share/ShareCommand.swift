import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync share create|add|remove|accept|leave|delete|list` (issue 18): zone sharing with
/// CloudKit's model. The owner shares a zone of their private database; participants accept
/// its URL and reach it in their shared database (`--database shared --owner OWNER`).
public enum ShareCommand {
    static let zoneOption = OptionSpec("zone", value: "ZONE", help: "The shared zone.", completion: .zoneName)
    static let permissions = ["read-only", "read-write"]

    /// The command table entry.
    public static let spec = CommandSpec(
        name: "share",
        abstract: "Share zones with other accounts, and accept or leave their shares.",
        discussion: """
            The owner makes a zone's share (a cloudkit.share record named cloudkit.zoneshare in \
            the zone) and invites accounts as read-only or read-write participants; each one \
            accepts the share's URL, and the zone appears in their shared database, addressed as \
            --database shared --zone ZONE --owner OWNER by record get|save|delete|query and \
            fetch-changes.

            Permissions: with --public-permission anyone holding the URL may accept at that \
            permission; otherwise others get exit 77, and so does the URL of a deleted share. \
            Read-only participants get 77 on save and delete; read-write participants may change \
            the zone's records (they stay the owner's data) but not the share.

            Removing a participant, their leaving, or deleting the share or the zone takes the \
            zone out of their shared database: their next fetch-changes --database shared \
            reports it deleted with reason unshared and drops its cached records (a store sync \
            drops the zone from the owner's local store, unpushed changes too, and warns).

            --owner takes a login only between accounts that have a share (invited or \
            accepted): to anyone else a login is unknown (3, or 77 for a write) whether or not it \
            exists, as user discovery in CloudKit is opt-in.

            Encrypted fields (store put --encrypt) are not supported in shared zones: they are \
            sealed with the owner's data key, which is not shared, so a participant's store get \
            or store query of a record holding one fails with exit 77 and one line saying so \
            (record get shows the ENCRYPTED_BYTES as stored); their edits of the record's other \
            fields keep the owner's ciphertext intact. The --json shapes are under JSON OUTPUT.
            """,
        examples: [
            Example("cloudsync share create --zone Trips --title 'Our trips'", "Share the zone Trips and print its URL."),
            Example("cloudsync share add --zone Trips bob --permission read-write", "Invite bob (or change his permission)."),
            Example("cloudsync --account bob share accept cloudsync://share/…", "Accept as bob."),
            Example("cloudsync --account bob record query Trip --database shared --zone Trips --owner alice",
                    "Read the shared zone as bob."),
        ],
        subcommands: [create, add, remove, accept, leave, delete, list])

    static let create = CommandSpec(
        name: "create", abstract: "Share a zone (or change its share's title and public permission); prints its URL.",
        options: [zoneOption,
                  OptionSpec("title", value: "TITLE", help: "What participants see (default: the zone's name)."),
                  OptionSpec("public-permission", value: "PERMISSION",
                             help: "What anyone with the URL may accept: none (default), read-only or read-write.",
                             completion: .values(["none"] + permissions))],
        examples: [
            Example("cloudsync share create --zone Trips --public-permission read-only", "Anyone holding the URL may read the zone."),
        ],
        jsonOutput: ShareJSONOutput.create,
        run: { context, arguments in
            let session = try context.session()
            let permission = try arguments.value("public-permission").map { try parsePermission($0, allowNone: true) }
            let share = try session.sharing().saveShare(zoneName: try zone(arguments), title: arguments.value("title"),
                                                        publicPermission: permission, in: session.request(.private))
            if context.output.isJSON {
                context.output.json(share.json)
            } else {
                context.output.line("\(share.url)")
            }
        })

    static let add = CommandSpec(
        name: "add", abstract: "Invite accounts to a zone's share, or change their permission.",
        options: [zoneOption,
                  OptionSpec("permission", value: "PERMISSION", help: "read-only (default) or read-write.",
                             completion: .values(permissions))],
        arguments: [ArgumentSpec("account", help: "Account login.", repeating: true)],
        examples: [
            Example("cloudsync share add --zone Trips carol dave", "Invite two accounts, read-only."),
        ],
        jsonOutput: ShareJSONOutput.add,
        run: { context, arguments in
            let session = try context.session()
            let permission = try parsePermission(arguments.value("permission") ?? "read-only", allowNone: false)
            let share = try session.sharing().addParticipants(arguments.arguments("account"), permission: permission,
                                                              zoneName: try zone(arguments), in: session.request(.private))
            print(share, context)
        })

    static let remove = CommandSpec(
        name: "remove", abstract: "Remove participants: the zone leaves their shared database.",
        options: [zoneOption],
        arguments: [ArgumentSpec("account", help: "Account login.", repeating: true)],
        examples: [
            Example("cloudsync share remove --zone Trips bob", "Bob's shared database loses the zone."),
        ],
        jsonOutput: ShareJSONOutput.remove,
        run: { context, arguments in
            let session = try context.session()
            let share = try session.sharing().removeParticipants(arguments.arguments("account"), zoneName: try zone(arguments),
                                                                 in: session.request(.private))
            print(share, context)
        })

    static let accept = CommandSpec(
        name: "accept", abstract: "Accept a share: its zone appears in your shared database.",
        arguments: [ArgumentSpec("url", help: "The share's URL (cloudsync://share/…).")],
        examples: [
            Example("cloudsync share accept \"$URL\"", "Accept the share whose URL the owner sent."),
        ],
        jsonOutput: ShareJSONOutput.accept,
        run: { context, arguments in
            let session = try context.session()
            guard let url = arguments.argument("url") else { throw CLIError.usage("the share's URL is required") }
            let share = try session.sharing().acceptShare(url: url, in: session.request(.shared))
            if context.output.isJSON {
                context.output.json(share.json)
            } else {
                let permission = share.participant(session.account.userRecordName)?.permission.rawValue ?? "?"
                context.output.line("accepted \(share.zoneID.zoneName) of \(share.ownerName ?? share.zoneID.ownerRecordName) (\(permission)): use --database shared --zone \(share.zoneID.zoneName) --owner \(share.ownerName ?? share.zoneID.ownerRecordName)")
            }
        })

    static let leave = CommandSpec(
        name: "leave", abstract: "Leave a share you accepted.",
        options: [zoneOption, SharedOwnerOption.option],
        examples: [
            Example("cloudsync share leave --zone Trips --owner alice", "Give back alice's zone Trips."),
        ],
        jsonOutput: ShareJSONOutput.leave,
        run: { context, arguments in
            guard arguments.value("owner") != nil else { throw CLIError.usage("--owner is required: the account that shared the zone") }
            let session = try context.session()
            let request = try context.databaseRequest(arguments, session: session, default: .shared)
            try session.sharing().leaveShare(zoneName: try zone(arguments), in: request)
            if context.output.isJSON {
                context.output.json(deletedShare(request.zoneID(try zone(arguments)), in: "accepted"))
            } else {
                context.output.line("left \(try zone(arguments))")
            }
        })

    static let delete = CommandSpec(
        name: "delete", abstract: "Stop sharing a zone: every participant loses it.",
        options: [zoneOption],
        examples: [
            Example("cloudsync share delete --zone Trips", "Stop sharing Trips with everyone."),
        ],
        jsonOutput: ShareJSONOutput.delete,
        run: { context, arguments in
            let session = try context.session()
            let request = session.request(.private)
            try session.sharing().deleteShare(zoneName: try zone(arguments), in: request)
            if context.output.isJSON {
                context.output.json(deletedShare(ZoneID(zoneName: try zone(arguments), ownerRecordName: session.account.userRecordName), in: "owned"))
            } else {
                context.output.line("stopped sharing \(try zone(arguments))")
            }
        })

    /// What `share delete` and `share leave` print with --json: the share gone, in the list of
    /// `share list` it was in (`owned` or `accepted`).
    static func deletedShare(_ zoneID: ZoneID, in list: String) -> JSONValue {
        .object([(list, .array([.object([("shareID", .string(Share.recordName)), ("zoneID", RecordJSON.encode(zoneID: zoneID)),
                                             ("deleted", .bool(true))])]))])
    }

    static let list = CommandSpec(
        name: "list", abstract: "List the shares you own (with participants) and those you accepted.",
        options: [OptionSpec("zone", value: "ZONE", help: "Only this zone.", completion: .zoneName)],
        examples: [
            Example("cloudsync share list --json", "The shares you own and those you accepted, as JSON."),
        ],
        jsonOutput: ShareJSONOutput.list,
        run: { context, arguments in
            let session = try context.session()
            let zoneName = arguments.value("zone")
            if let zoneName { try NameRules.validateZoneName(zoneName) }
            let sharing = try session.sharing()
            let owned = try sharing.ownedShares(zoneName: zoneName, in: session.request(.private))
            let accepted = try sharing.acceptedShares(zoneName: zoneName, in: session.request(.shared))
            if context.output.isJSON {
                context.output.json(.object([("owned", .array(owned.map(\.json))), ("accepted", .array(accepted.map(\.json)))]))
                return
            }
            var rows: [[String]] = []
            for share in owned {
                rows.append(["owned", share.zoneID.zoneName, "-", share.title, "public " + share.publicPermission.rawValue])
                for participant in share.participants {
                    rows.append(["", "", participant.accountName ?? participant.userRecordName, participant.permission.rawValue,
                                 participant.acceptance.rawValue])
                }
            }
            for share in accepted {
                let mine = share.participant(session.account.userRecordName)
                rows.append(["accepted", share.zoneID.zoneName, share.ownerName ?? share.zoneID.ownerRecordName, share.title,
                             mine?.permission.rawValue ?? "?"])
            }
            if rows.isEmpty {
                context.output.line("no shares")
            } else {
                context.output.table(["SHARE", "ZONE", "ACCOUNT", "TITLE/PERMISSION", "STATE"], rows)
            }
        })

    static func zone(_ arguments: ParsedArguments) throws -> String {
        guard let name = arguments.value("zone") else { throw CLIError.usage("--zone is required") }
        try NameRules.validateZoneName(name)
        return name
    }

    static func parsePermission(_ text: String, allowNone: Bool) throws -> SharePermission {
        guard let permission = SharePermission(argument: text), allowNone || permission != .none else {
            throw CLIError.usage("unknown permission '\(text)'; use \(allowNone ? "none, " : "")read-only or read-write")
        }
        return permission
    }

    static func print(_ share: Share, _ context: CommandContext) {
        if context.output.isJSON {
            context.output.json(share.json)
            return
        }
        context.output.line("\(share.zoneID.zoneName): \(share.participants.count) participant(s)")
        for participant in share.participants {
            context.output.line("  \(participant.accountName ?? participant.userRecordName) \(participant.permission.rawValue) \(participant.acceptance.rawValue)")
        }
    }
}
