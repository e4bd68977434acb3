import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore

/// `cloudsync admin add|list|remove`: the accounts that administer a container (schema import,
/// deploy and reset), kept in the cloud's own store like the tokens.
public enum AdminCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "admin",
        abstract: "Name the accounts that administer the container (schema import, deploy, reset).",
        discussion: """
            Container-wide acts (schema import, deploy and reset) need an administrator of the \
            container; everyone else gets exit 77 (403 ACCESS_DENIED through serve). On a cloud \
            store opened directly (--cloud sqlite:///… or postgres://…), the first account that \
            imports or deploys a schema, or runs 'admin add', becomes the container's first \
            administrator; after that only an administrator adds or removes one. Through serve no \
            one claims a container: its administrators are named here, on the server's store, or \
            act with a token made by 'token create --admin'.
            """,
        examples: [Example("cloudsync --account alice admin add alice", "Make alice the first administrator of the container."),
                   Example("cloudsync --account alice admin add bob", "Let bob administer it too."),
                   Example("cloudsync admin list", "The container's administrators.")],
        subcommands: [add, list, remove])

    static let add = CommandSpec(
        name: "add", abstract: "Make an account an administrator of the container (as --account, an administrator).",
        arguments: [ArgumentSpec("name", help: "The account's login name.")],
        examples: [Example("cloudsync --account alice admin add bob", "Let bob import, deploy and reset the schema.")],
        jsonOutput: JSONOutput.document("The administrator added.", [("container", "The container."), ("account", "The account."),
                                                                     ("added", "false when it was one already.")]),
        run: { context, arguments in
            let name = arguments.argument("name") ?? ""
            let container = context.settings.container
            let added = try CredentialStore.service(context).addAdministrator(name, container: container,
                                                                               by: .holdingStore(context.settings.account))
            if context.output.isJSON {
                context.output.json(.object([("container", .string(container)), ("account", .string(name)), ("added", .bool(added))]))
            } else {
                context.output.line(added ? "\(name) administers \(container)" : "\(name) administers \(container) already")
            }
        })

    static let list = CommandSpec(
        name: "list", abstract: "List the container's administrators.",
        examples: [Example("cloudsync admin list --json", "The administrators as JSON.")],
        jsonOutput: JSONOutput.document("The container's administrators.", [("container", "The container."),
                                                                            ("administrators", "Their login names.")]),
        run: { context, _ in
            let container = context.settings.container
            let names = try CredentialStore.service(context).administrators(container: container)
            if context.output.isJSON {
                context.output.json(.object([("container", .string(container)), ("administrators", .array(names.map { .string($0) }))]))
            } else if names.isEmpty {
                context.output.info("\(container) has no administrator yet: the first account to import or deploy its schema becomes one")
            } else {
                for name in names { context.output.line(.value(name)) }
            }
        })

    static let remove = CommandSpec(
        name: "remove", abstract: "End an account's administration of the container (as --account, an administrator).",
        arguments: [ArgumentSpec("name", help: "The account's login name.")],
        examples: [Example("cloudsync --account alice admin remove bob", "bob no longer administers the container.")],
        jsonOutput: JSONOutput.document("The administrator removed, in the list 'admin list' prints.",
                                        [("container", "The container."), ("administrators", "[{account, deleted: true}].")]),
        run: { context, arguments in
            let name = arguments.argument("name") ?? ""
            let container = context.settings.container
            try CredentialStore.service(context).removeAdministrator(name, container: container,
                                                                      by: .holdingStore(context.settings.account))
            if context.output.isJSON {
                context.output.json(.object([("container", .string(container)), ("administrators", .array([
                    .object([("account", .string(name)), ("deleted", .bool(true))]),
                ]))]))
            } else {
                context.output.line("\(name) no longer administers \(container)")
            }
        })
}
