import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
import CloudSyncDevice
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync kv`: the ubiquitous key-value store (NSUbiquitousKeyValueStore's stand-in). One
/// store per account, shared by its devices; each device keeps a local copy and works offline.
public enum KVCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "kv",
        abstract: "Get, set and sync the account's key-value store.",
        discussion: """
            get, set, delete and list work on this device's copy, offline; set and delete wait as \
            pending until 'kv sync'. Per key, the last writer wins by the cloud's timestamp. \
            Apple's limits hold: at most 1024 keys, 1 MB in all and per value, keys of at most 64 \
            bytes; a write over a limit fails with QuotaViolation and changes nothing. 'kv sync' \
            reports every change that came from elsewhere with its reason (ServerChange, \
            InitialSyncChange, QuotaViolationChange, AccountChange). The key icloud_sync is the \
            sync toggle of 'store sync on|off'.
            """,
        examples: [Example("cloudsync kv set theme dark", "Set a string."),
                   Example("cloudsync kv set volume 0.8 --type number", "Set a number."),
                   Example("cloudsync kv sync --json", "Sync and print external changes.")],
        subcommands: [get, set, delete, list, sync])

    static let get = CommandSpec(
        name: "get", abstract: "Print a key's value.",
        arguments: [ArgumentSpec("key", help: "The key.", completion: .kvKey)],
        examples: [
            Example("cloudsync kv get theme", "Print the value of theme."),
        ],
        jsonOutput: KVJSONOutput.get,
        run: { context, arguments in
            let key = arguments.argument("key") ?? ""
            guard let value = try context.deviceStore().keyValue(container: context.settings.container, key) else {
                throw CLIError.notFound("no key '\(key)' in the key-value store")
            }
            if context.output.isJSON {
                context.output.json(.object([("key", .string(key)), ("type", .string(value.typeName)), ("value", value.jsonValue)]))
            } else {
                context.output.line(.value(value.storedText))
            }
        })

    static let set = CommandSpec(
        name: "set", abstract: "Set a key (offline; pending until kv sync).",
        options: [OptionSpec("type", value: "TYPE", help: "string (default), number, bool, data (base64) or json.",
                             completion: .values(["string", "number", "bool", "data", "json"])),
                  OptionSpec("file", value: "PATH", help: "Read the value from a file (- for stdin); data is taken raw.",
                             completion: .file)],
        arguments: [ArgumentSpec("key", help: "The key (at most 64 bytes).", completion: .kvKey),
                    ArgumentSpec("value", help: "The value (or --file).", optional: true)],
        examples: [
            Example("cloudsync kv set greeting 'hello there'", "Set a string."),
            Example("cloudsync kv set volume 0.5 --type number", "Set a number."),
        ],
        jsonOutput: KVJSONOutput.set,
        run: { context, arguments in
            let key = arguments.argument("key") ?? ""
            if let path = arguments.value("file") {
                guard arguments.argument("value") == nil else { throw CLIError.usage("give the value or --file, not both") }
                let bytes = try readValue(path)
                let type = arguments.value("type") ?? "string"
                let value: KeyValue
                if type == "data" {
                    value = .data(bytes)
                } else {
                    guard let text = String(validating: bytes, as: UTF8.self) else {
                        throw CLIError.badInput("\(path) is not UTF-8 text; use --type data")
                    }
                    value = try parse(type == "string" ? text : text.trimmingNewline, type: type)
                }
                try context.deviceStore().setKeyValue(container: context.settings.container, key, value, now: now())
                confirm(context, "\(key) set (pending until 'kv sync')", key: key, value: value)
                return
            }
            guard let text = arguments.argument("value") else { throw CLIError.usage("a value (or --file) is required") }
            let value = try parse(text, type: arguments.value("type") ?? "string")
            try context.deviceStore().setKeyValue(container: context.settings.container, key, value, now: now())
            confirm(context, "\(key) set (pending until 'kv sync')", key: key, value: value)
        })

    /// A write's result on stdout: the line, or with --json the key as `kv list --json` shows
    /// it (`value` null for a deletion).
    static func confirm(_ context: CommandContext, _ text: TerminalText, key: String, value: KeyValue?) {
        if context.output.isJSON {
            context.output.json(.object([("key", .string(key)), ("type", value.map { .string($0.typeName) } ?? .null),
                                         ("value", value?.jsonValue ?? .null), ("pending", .bool(true))]))
        } else {
            context.output.line(text)
        }
    }

    static let delete = CommandSpec(
        name: "delete", abstract: "Delete a key (offline; pending until kv sync).",
        arguments: [ArgumentSpec("key", help: "The key.", completion: .kvKey)],
        examples: [
            Example("cloudsync kv delete theme", "Delete theme; 'kv sync' deletes it for the other devices."),
        ],
        jsonOutput: KVJSONOutput.delete,
        run: { context, arguments in
            let key = arguments.argument("key") ?? ""
            let store = try context.deviceStore()
            guard let had = try store.keyValue(container: context.settings.container, key) else {
                throw CLIError.notFound("no key '\(key)' in the key-value store")
            }
            try store.setKeyValue(container: context.settings.container, key, nil, now: now())
            if context.output.isJSON {
                context.output.json(.object([("keys", .array([.object([
                    ("key", .string(key)), ("type", .string(had.typeName)), ("deleted", .bool(true)), ("pending", .bool(true)),
                ])]))]))
            } else {
                context.output.line("\(key) deleted (pending until 'kv sync')")
            }
        })

    /// The keys cloudsync keeps for itself (`cloudsync.data-key`, the wrapped data key with its
    /// scrypt parameters): `kv list` shows them only with `--all`.
    static let reservedPrefix = "cloudsync."

    static let list = CommandSpec(
        name: "list", abstract: "List keys, values and whether they are pending.",
        options: [OptionSpec("all", short: "a", help: "Also list the keys cloudsync keeps for itself (cloudsync.*, such as the wrapped data key).")],
        examples: [
            Example("cloudsync kv list --json", "Every key, its value and whether it is pending, as JSON."),
        ],
        jsonOutput: KVJSONOutput.list,
        run: { context, arguments in
            let all = arguments.flag("all")
            let items = try context.deviceStore().keyValues(container: context.settings.container)
                .filter { all || !$0.key.hasPrefix(reservedPrefix) }
            if context.output.isJSON {
                context.output.json(.object([("keys", .array(items.map { item in
                    .object([("key", .string(item.key)), ("type", .string(item.value?.typeName ?? "")),
                             ("value", item.value?.jsonValue ?? .null), ("pending", .bool(item.pending))])
                }))]))
                return
            }
            context.output.table(["KEY", "TYPE", "VALUE", "STATE"], items.map { item in
                [item.key, item.value?.typeName ?? "", item.value?.storedText ?? "", item.pending ? "pending" : "synced"]
            }, fitting: 2)
        })

    static let sync = CommandSpec(
        name: "sync", abstract: "Push pending writes and pull changes made elsewhere.",
        examples: [
            Example("cloudsync kv sync", "Push this device's writes and pull the others'."),
        ],
        jsonOutput: KVJSONOutput.sync,
        run: { context, _ in
            let changes = try context.session().keyValueSync().sync()
            if context.output.isJSON {
                context.output.json(.object([("externalChanges", .array(changes.map { change in
                    .object([("reason", .string(change.reason.rawValue)), ("keys", .array(change.items.map { item in
                        .object([("key", .string(item.key)), ("type", item.value.map { .string($0.typeName) } ?? .null),
                                 ("value", item.value?.jsonValue ?? .null), ("deviceID", .string(item.deviceID)),
                                 ("modified", .int(item.modified))])
                    }))])
                }))]))
                return
            }
            if changes.isEmpty { context.output.line("No external changes."); return }
            for change in changes {
                context.output.line("\(change.reason.rawValue): \(change.items.map(\.key).joined(separator: ", "))")
            }
        })

    /// Reads a value file (or stdin for `-`), refusing more than 2 MB.
    static func readValue(_ path: String) throws -> [UInt8] {
        let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CLIError.badInput("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n < 0 { throw CLIError.badInput("cannot read \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > 2 << 20 { throw CLIError.badInput("\(path) is larger than 2 MB; a value holds at most 1 MB") }
        }
        return bytes
    }

    /// Parses a value given on the command line as a type.
    static func parse(_ text: String, type: String) throws -> KeyValue {
        switch type {
        case "string": return .string(text)
        case "number":
            guard text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }), let d = Double(text), d.isFinite else {
                throw CLIError.badInput("'\(text)' is not a number")
            }
            return .number(d)
        case "bool":
            switch text.lowercased() {
            case "true", "yes", "on", "1": return .bool(true)
            case "false", "no", "off", "0": return .bool(false)
            default: throw CLIError.badInput("'\(text)' is not a bool (true/false)")
            }
        case "data":
            guard let bytes = Base64.decode(text) else { throw CLIError.badInput("'\(text)' is not base64") }
            return .data(bytes)
        case "json":
            do { return .json(try JSONValue.parse(text)) } catch { throw CLIError.badInput("value is not JSON: \(error)") }
        default:
            throw CLIError.usage("unknown type '\(type)'; use string, number, bool, data or json")
        }
    }

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}

extension String {
    /// Without one trailing newline (files usually end with one).
    var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
