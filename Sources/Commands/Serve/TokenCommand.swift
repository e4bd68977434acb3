import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync token`: the credentials `cloudsync serve` accepts, kept in the cloud's store.
public enum TokenCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "token",
        abstract: "Create, list and revoke the tokens and keys of 'cloudsync serve'.",
        discussion: """
            Tokens and server-to-server keys live in the cloud's own store (--cloud sqlite:///… \
            or postgres://…), so every serve process over it accepts them. A token is printed \
            once by 'token create'; only its SHA-256 is stored. A token or key acts as exactly \
            one account (--account). With --admin it also carries the administrator role: \
            container-wide acts (schema import, deploy and reset) on every container of the \
            server, and the server's operations: the console's Operations page (tokens, keys, \
            figures), POST /admin/1/credentials/… and GET /metrics; other tokens get 403 \
            ACCESS_DENIED (exit 77) for them.
            """,
        examples: [Example("cloudsync token create --account alice --cloud sqlite:///srv/cloud.sqlite",
                           "Print a new token for alice."),
                   Example("cloudsync token list", "List tokens and keys (never the tokens)."),
                   Example("cloudsync token revoke tok_0123456789abcdef", "Revoke a token.")],
        subcommands: [create, list, revoke, addKey])

    static let admin = OptionSpec("admin", help: "Give it the administrator role (schema import, deploy and reset of every container; the console's Operations page and GET /metrics).")

    static let create = CommandSpec(
        name: "create", abstract: "Print a new token for --account, or an API token with --api (shown once).",
        discussion: """
            With --api, a container API token (64 hex characters, as Apple's) for --container: \
            sent as ?ckAPIToken=TOKEN it acts as no user, reading the public database where the \
            schema lets _world read; anything else is 421 AUTHENTICATION_REQUIRED. With \
            ?ckWebAuthToken=USER_TOKEN as well, the request is that user's.
            """,
        options: [admin, OptionSpec("api", help: "Make a container API token (reads the public database as no user).")],
        examples: [
            Example("cloudsync --account alice token create", "A token that acts as alice; keep it, it is shown once."),
            Example("cloudsync --account ops token create --admin", "A token that may also import, deploy and reset schemas."),
            Example("cloudsync --container iCloud.com.example.App token create --api", "An API token for the public database."),
        ],
        jsonOutput: ServeJSONOutput.create,
        run: { context, arguments in
            let service = try CredentialStore.service(context)
            if arguments.flag("api") {
                guard !arguments.flag("admin") else { throw CLIError.usage("an API token acts as no user: it cannot be --admin") }
                let (row, token) = try service.createAPIToken(container: context.settings.container)
                if context.output.isJSON {
                    context.output.json(.object([("id", .string(row.id)), ("account", .string("")), ("role", .string(role(row))),
                                                 ("container", .string(row.container ?? "")), ("token", .string(token))]))
                } else {
                    context.output.line(.value(token))
                    context.output.info("API token \(row.id) for \(row.container ?? ""); it is shown only now")
                }
                return
            }
            let (row, token) = try service.createToken(account: context.settings.account, admin: arguments.flag("admin"))
            if context.output.isJSON {
                context.output.json(.object([("id", .string(row.id)), ("account", .string(row.account)), ("role", .string(role(row))),
                                             ("token", .string(token))]))
            } else {
                context.output.line(.value(token))
                context.output.info("token \(row.id) for account \(row.account)\(row.isAdmin ? " (administrator)" : ""); it is shown only now")
            }
        })

    static let list = CommandSpec(
        name: "list", abstract: "List tokens and keys: ID, account, kind, role, created, last used.",
        examples: [
            Example("cloudsync token list --json", "Every token and key as JSON."),
        ],
        jsonOutput: ServeJSONOutput.list,
        run: { context, _ in
            let rows = try CredentialStore.service(context).credentials()
            if context.output.isJSON {
                context.output.json(.object([("tokens", .array(rows.map { row in
                    .object([("id", .string(row.id)), ("account", .string(row.account)), ("kind", .string(row.kind.rawValue)),
                             ("role", .string(role(row))), ("container", row.container.map { .string($0) } ?? .null), ("created", .int(row.created)),
                             ("lastUsed", row.lastUsed.map { .int($0) } ?? .null)])
                }))]))
                return
            }
            if rows.isEmpty {
                context.output.info("no tokens or keys")
                return
            }
            context.output.table(["ID", "ACCOUNT", "KIND", "ROLE", "CREATED", "LAST USED"], rows.map { row in
                [row.id, row.kind == .apiToken ? "(\(row.container ?? ""))" : row.account, row.kind.rawValue, role(row),
                 ISO8601.format(milliseconds: row.created),
                 row.lastUsed.map { ISO8601.format(milliseconds: $0) } ?? "never"]
            })
        })

    static let revoke = CommandSpec(
        name: "revoke", abstract: "Revoke a token or key by ID.",
        discussion: """
            It stops authenticating at once, on every server over the cloud. The server keeps it \
            as revoked: a request that presents it gets 401 AUTHENTICATION_FAILED saying it was \
            revoked (not "unknown"), and 'token list' no longer shows it. Revoking it again is \
            exit 3.
            """,
        arguments: [ArgumentSpec("id", help: "The ID 'token list' shows.")],
        examples: [
            Example("cloudsync token revoke 3", "Revoke the token or key with ID 3 (see 'token list')."),
        ],
        jsonOutput: ServeJSONOutput.revoke,
        run: { context, arguments in
            let id = arguments.argument("id") ?? ""
            try CredentialStore.service(context).revokeCredential(id: id)
            if context.output.isJSON {
                context.output.json(.object([("tokens", .array([.object([("id", .string(id)), ("deleted", .bool(true))])]))]))
            } else {
                context.output.line("revoked \(id)")
            }
        })

    static let addKey = CommandSpec(
        name: "add-key", abstract: "Register a server-to-server key (ECDSA P-256) for --account; print its key ID.",
        discussion: """
            Requests signed with the key's private half as Apple documents (headers \
            X-Apple-CloudKit-Request-KeyID, -ISO8601Date, at most 5 minutes off, and -SignatureV1, \
            the base64 DER ECDSA-SHA256 signature of date:base64(sha256(body)):path) act as the account.
            """,
        options: [OptionSpec("public-key", value: "FILE", help: "The PEM public key (openssl ec -pubout).", completion: .file), admin],
        examples: [
            Example("cloudsync --account alice token add-key --public-key eckey.pub", "Register a public key made with openssl ec -pubout."),
        ],
        jsonOutput: ServeJSONOutput.addKey,
        run: { context, arguments in
            guard let path = arguments.value("public-key") else { throw CLIError.usage("--public-key FILE is required") }
            let pem = try readText(path)
            let keyID: String
            do {
                keyID = try ServerKeySignature.keyID(publicKeyPEM: pem)
            } catch {
                throw CLIError.badInput("\(path): \(error)")
            }
            let row = try CredentialStore.service(context).addServerKey(account: context.settings.account, publicKeyPEM: pem,
                                                                         keyID: keyID, admin: arguments.flag("admin"))
            if context.output.isJSON {
                context.output.json(.object([("id", .string(row.id)), ("account", .string(row.account))]))
            } else {
                context.output.line(.value(row.id))
            }
        })

    /// The role a credential carries: `admin` or `user`.
    static func role(_ row: CredentialRow) -> String { row.kind == .apiToken ? "none" : row.isAdmin ? "admin" : "user" }

    /// A small text file (at most 64 KiB).
    static func readText(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.badInput("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes += chunk[0..<count]
                if bytes.count > 65536 { throw CLIError.badInput("\(path) is larger than 64 KiB; it is not a public key") }
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw CLIError.badInput("cannot read \(path): \(String(cString: strerror(errno)))")
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIError.badInput("\(path) is not text") }
        return text
    }
}
