import CloudSyncCLI
import CloudSyncSession
import CloudSyncIdentity
import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// `keys identity`, `keys show`, `keys trust`, `keys rotate`, `keys export-identity`: the
/// account's X25519 identity for messages between accounts.
enum KeysIdentity {
    static let identity = CommandSpec(
        name: "identity", abstract: "Show this account's identity key, creating and publishing it on first use.",
        discussion: """
            The identity is an X25519 keypair. Its private key is kept in the private database \
            encrypted with the account's data key (so it needs `keys unlock`, and every device of \
            the account that unlocks gets the same identity); its public key is published in the \
            public database as the UserIdentity record named by your userRecordName, readable by \
            everyone and writable only by you. The fingerprint is the SHA-256 of the raw 32-byte \
            public key, in hex: compare it with your correspondents out of band.
            """,
        examples: [Example("cloudsync keys identity --json", "The fingerprint and base64 public key, as JSON.")],
        jsonOutput: KeysJSONOutput.identity,
        run: { context, _ in
            let session = try context.session()
            let (key, created) = try IdentityStore(session: session).current()
            output(context, key, account: session.account, created: created)
        })

    static let show = CommandSpec(
        name: "show", abstract: "Show another account's published identity key and whether it is trusted here.",
        discussion: "The first key seen of an account is pinned on this device (trust on first use). A published key that differs from the pinned one is flagged as CHANGED and messages to that account are refused until `keys trust`.",
        arguments: [ArgumentSpec("account", help: "The account's login name, or its userRecordName (an account that is not discoverable is found only by it).")],
        examples: [
            Example("cloudsync keys show bob", "Bob's identity key, display name and fingerprint, to compare with him."),
        ],
        jsonOutput: KeysJSONOutput.show,
        run: { context, arguments in
            let session = try context.session()
            let name = arguments.argument("account") ?? ""
            let identity = try IdentityStore(session: session).published(account: name)
            var pins = try KeyPins(session: session)
            let standing = identity.userRecordName == session.account.userRecordName ? .trusted : try pins.check(identity)
            if context.output.isJSON {
                context.output.json(.object([("account", .string(name)), ("userRecordName", .string(identity.userRecordName)),
                                             ("fingerprint", .string(identity.fingerprint)),
                                             ("publicKey", .string(Base64.encode(identity.publicKey.rawRepresentation))),
                                             ("createdAt", .int(identity.createdAt)),
                                             ("trust", .string(standing.rawValue)),
                                             ("pinnedFingerprint", pins.pinned(identity.userRecordName).map { .string($0) } ?? .null),
                                             ("displayName", identity.user?.displayName.map { .string($0) } ?? .null)]))
                return
            }
            context.output.line("account:     \(name)")
            if let displayName = identity.user?.displayName { context.output.line("name:        \(displayName)") }
            context.output.line("fingerprint: \(Identity.grouped(identity.fingerprint))")
            context.output.line("created:     \(ISO8601.format(milliseconds: identity.createdAt))")
            switch standing {
            case .pinnedNow: context.output.line("trust:       pinned now (first sight); compare the fingerprint with \(name)")
            case .trusted: context.output.line("trust:       trusted (matches the pinned key)")
            case .changed:
                context.output.line("trust:       CHANGED: the pinned key was \(Identity.grouped(pins.pinned(identity.userRecordName) ?? ""))")
                context.output.warning("the identity key of '\(name)' changed; sending is refused until `cloudsync keys trust \(name) \(identity.fingerprint)`")
            }
        })

    static let trust = CommandSpec(
        name: "trust", abstract: "Pin an account's identity key by its fingerprint.",
        discussion: "FINGERPRINT must be the account's currently published key (64 hex digits; spaces and colons are ignored). Messages sealed with keys trusted earlier still authenticate.",
        arguments: [ArgumentSpec("account", help: "The account's login name."),
                    ArgumentSpec("fingerprint", help: "The fingerprint you checked with its owner.")],
        examples: [
            Example("cloudsync keys trust bob 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
                    "Trust the key whose fingerprint Bob read out to you."),
        ],
        jsonOutput: KeysJSONOutput.trust,
        run: { context, arguments in
            let session = try context.session()
            let name = arguments.argument("account") ?? ""
            guard let fingerprint = Identity.normalizedFingerprint(arguments.argument("fingerprint") ?? "") else {
                throw CLIError.badInput("a fingerprint is 64 hex digits (as `cloudsync keys show \(name)` prints it)")
            }
            let identity = try IdentityStore(session: session).published(account: name)
            guard identity.fingerprint == fingerprint else {
                throw CLIError.conflict("'\(name)' publishes the key \(identity.fingerprint), not \(fingerprint); nothing pinned")
            }
            var pins = try KeyPins(session: session)
            try pins.pin(fingerprint, for: identity.userRecordName)
            if context.output.isJSON {
                context.output.json(.object([("account", .string(name)), ("fingerprint", .string(fingerprint)), ("trust", .string("trusted"))]))
            } else {
                context.output.line("trusted the identity key of \(name): \(Identity.grouped(fingerprint))")
            }
        })

    static let rotate = CommandSpec(
        name: "rotate", abstract: "Make a new identity key; the old ones stay so old messages still open.",
        discussion: "Correspondents see the change as a CHANGED key until they `keys trust` the new fingerprint.",
        examples: [
            Example("cloudsync keys rotate", "Publish a new identity key for this account."),
        ],
        jsonOutput: KeysJSONOutput.rotate,
        run: { context, _ in
            let session = try context.session()
            let (old, new) = try IdentityStore(session: session).rotate()
            if context.output.isJSON {
                context.output.json(.object([("fingerprint", .string(new.fingerprint)),
                                             ("publicKey", .string(Base64.encode(new.publicKey.rawRepresentation))),
                                             ("previousFingerprint", old.map { .string($0.fingerprint) } ?? .null)]))
            } else {
                context.output.line("new identity key: \(Identity.grouped(new.fingerprint))")
                if let old { context.output.line("previous key kept: \(Identity.grouped(old.fingerprint))") }
            }
        })

    static let export = CommandSpec(
        name: "export-identity", abstract: "Write the current identity private key as PKCS#8 PEM (mode 0600).",
        discussion: "Asks for the sync passphrase (CLOUDSYNC_PASSPHRASE) even when the data key is unlocked here. For backups and for independent HPKE tools; --all writes every key, oldest first.",
        options: [OptionSpec("output", value: "FILE", help: "Where to write the PEM (created 0600; refuses to overwrite).", completion: .file),
                  OptionSpec("all", help: "Every identity key, oldest first, not only the current one.")],
        examples: [
            Example("cloudsync keys export-identity --output identity.pem", "Write the key to identity.pem."),
        ],
        jsonOutput: KeysJSONOutput.exportIdentity,
        run: { context, arguments in
            guard let path = arguments.value("output") else { throw CLIError.usage("give --output FILE") }
            let session = try context.session()
            // The passphrase is asked again on purpose: an exported key leaves the data key's protection.
            try session.keyValueSync().sync()
            guard case .json(let wrapped)? = try session.deviceStore().keyValue(container: context.settings.container,
                                                                                 DataKeyManager.wrappedKeyName) else {
                throw CLIError.notFound("this account has no data key and so no identity yet; run `cloudsync keys identity`")
            }
            try DataKeyManager.verify(wrapped, passphrase: try session.passphrase())
            let keys = try IdentityStore(session: session).ownKeys()
            guard let current = keys.last else {
                throw CLIError.notFound("this account has no identity key yet; run `cloudsync keys identity`")
            }
            let pem = (arguments.flag("all") ? keys : [current]).map(\.privateKey.pkcs8PEM).joined()
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw CLIError.failed("cannot create \(path): \(String(cString: strerror(errno)))")
            }
            let bytes = Array(pem.utf8)
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
            guard written == bytes.count else { throw CLIError.failed("cannot write \(path)") }
            if context.output.isJSON {
                context.output.json(.object([("path", .string(path)), ("fingerprint", .string(current.fingerprint)),
                                             ("keys", .int(Int64(arguments.flag("all") ? keys.count : 1)))]))
            } else {
                context.output.line("wrote the identity private key \(Identity.grouped(current.fingerprint)) to \(path) (mode 0600)")
            }
        })

    static func output(_ context: CommandContext, _ key: IdentityKey, account: Account, created: Bool) {
        if context.output.isJSON {
            context.output.json(.object([("fingerprint", .string(key.fingerprint)),
                                         ("publicKey", .string(Base64.encode(key.publicKey.rawRepresentation))),
                                         ("userRecordName", .string(account.userRecordName)), ("account", .string(account.name)),
                                         ("createdAt", .int(key.createdAt)),
                                         ("created", .bool(created))]))
        } else {
            if created { context.output.line("created and published a new identity key") }
            context.output.line("account:     \(account.name) (\(account.userRecordName))")
            context.output.line("fingerprint: \(Identity.grouped(key.fingerprint))")
            context.output.line("created:     \(ISO8601.format(milliseconds: key.createdAt))")
        }
    }
}
