import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import CloudSyncDevice

/// `cloudsync keys`: the account's data key for encrypted fields and identity key for messages.
public enum KeysCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "keys",
        abstract: "The account's data key for encrypted fields, and its identity key for messages.",
        discussion: """
            Encrypted fields are sealed on the device with the account's data key (AES-256-GCM). \
            The cloud holds that key only wrapped by a key derived from your sync passphrase with \
            scrypt. Each device unlocks once (no-echo prompt, or CLOUDSYNC_PASSPHRASE) and keeps \
            the key in a 0600 file under $CLOUDSYNC_HOME/keys/<account>/<device>/. Changing the passphrase re-wraps the \
            key; nothing is re-encrypted.

            The identity key (X25519) encrypts and authenticates messages between accounts \
            (`cloudsync message`): `keys identity` makes and publishes it, `keys show` and \
            `keys trust` check and pin other accounts' keys, `keys rotate` replaces it and \
            `keys export-identity` writes it as PKCS#8 PEM.
            """,
        examples: [Example("cloudsync keys unlock", "Unlock on this device (asks for the passphrase)."),
                   Example("cloudsync keys show bob", "Bob's published identity key and whether it is trusted here."),
                   Example("CLOUDSYNC_PASSPHRASE=old CLOUDSYNC_NEW_PASSPHRASE=new cloudsync keys passphrase change",
                           "Change the passphrase in a script.")],
        subcommands: [unlock, lock, status, passphrase, KeysIdentity.identity, KeysIdentity.show, KeysIdentity.trust,
                      KeysIdentity.rotate, KeysIdentity.export])

    /// A command's one-line result on stdout (nothing with --json, which has no result here).
    static func confirm(_ context: CommandContext, _ text: TerminalText) {
        if !context.output.isJSON { context.output.line(text) }
    }

    static let unlock = CommandSpec(
        name: "unlock", abstract: "Unlock (or, on the account's first device, create) the data key here.",
        examples: [
            Example("cloudsync keys unlock", "Asks for the sync passphrase on a terminal."),
            Example("CLOUDSYNC_PASSPHRASE=secret cloudsync keys unlock", "Without a terminal."),
        ],
        jsonOutput: KeysJSONOutput.unlock,
        run: { context, _ in
            let session = try context.session()
            let manager = try session.dataKeyManager()
            let existed = try manager.localKey() != nil
            _ = try session.unlockDataKey(manager)
            confirm(context, existed ? "the data key was already unlocked on this device" : "data key unlocked on this device")
        })

    static let lock = CommandSpec(
        name: "lock", abstract: "Forget the unlocked data key on this device.",
        examples: [
            Example("cloudsync keys lock", "Encrypted fields stay sealed here until the next unlock."),
        ],
        jsonOutput: KeysJSONOutput.lock,
        run: { context, _ in
            try context.session().dataKeyManager().lock()
            confirm(context, "data key removed from this device")
        })

    static let status = CommandSpec(
        name: "status", abstract: "Whether this device holds the data key and the account has one.",
        examples: [
            Example("cloudsync keys status --json", "Whether the data key is here and the account has one, as JSON."),
        ],
        jsonOutput: KeysJSONOutput.status,
        run: { context, _ in
            let session = try context.session()
            let manager = try session.dataKeyManager()
            let local = try manager.localKey() != nil
            try session.keyValueSync().sync()
            let inCloud = try session.deviceStore().keyValue(container: context.settings.container, DataKeyManager.wrappedKeyName) != nil
            let marks = try EncryptionMarks.all(store: session.deviceStore(), container: context.settings.container)
            if context.output.isJSON {
                context.output.json(.object([("unlocked", .bool(local)), ("accountHasKey", .bool(inCloud)),
                                             ("encryptedFields", .object(marks.sorted { $0.key < $1.key }.map {
                                                 ($0.key, .array($0.value.sorted().map { .string($0) }))
                                             }))]))
            } else {
                context.output.line("data key on this device: \(local ? "unlocked" : "locked")")
                context.output.line("account data key:        \(inCloud ? "in the cloud (wrapped)" : "none yet")")
                for (type, fields) in marks.sorted(by: { $0.key < $1.key }) {
                    context.output.line("encrypted fields of \(type): \(fields.sorted().joined(separator: ", "))")
                }
            }
        })

    static let passphrase = CommandSpec(
        name: "passphrase", abstract: "Change the sync passphrase.",
        examples: [
            Example("cloudsync keys passphrase change", "Asks for the current and the new passphrase."),
        ],
        subcommands: [CommandSpec(
            name: "change", abstract: "Re-wrap the data key under a new passphrase (data is not re-encrypted).",
            discussion: "Reads the current passphrase from CLOUDSYNC_PASSPHRASE and the new one from CLOUDSYNC_NEW_PASSPHRASE, or asks for both on a terminal.",
            examples: [
                Example("CLOUDSYNC_PASSPHRASE=old CLOUDSYNC_NEW_PASSPHRASE=new cloudsync keys passphrase change", "Change it without a terminal."),
            ],
            jsonOutput: KeysJSONOutput.change,
            run: { context, _ in
                let session = try context.session()
                let old = try session.passphrase("Current sync passphrase: ")
                let new = try session.passphrase("New sync passphrase: ", variable: "CLOUDSYNC_NEW_PASSPHRASE")
                if context.environment["CLOUDSYNC_NEW_PASSPHRASE"] == nil {
                    let again = try session.passphrase("New sync passphrase again: ", variable: "CLOUDSYNC_NEW_PASSPHRASE")
                    guard again == new else { throw CLIError.badInput("the new passphrases differ; nothing changed") }
                }
                try session.dataKeyManager().changePassphrase(old: old, new: new)
                confirm(context, "passphrase changed; the data key was re-wrapped")
            })])
}
