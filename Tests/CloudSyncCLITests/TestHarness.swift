import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import Glibc

/// What one dispatcher run printed and returned.
struct Captured {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// A temporary folder, removed with everything in it by `remove()`.
struct TempDir {
    let path: String

    init() {
        var template = Array("/tmp/cloudsync-cli-test-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { pointer -> Bool in
            guard let base = pointer.baseAddress else { return false }
            return mkdtemp(base) != nil
        }
        precondition(made, "mkdtemp failed")
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes a file (creating parent folders) with the given mode.
    @discardableResult
    func write(_ relative: String, _ text: String, mode: mode_t = 0o644) -> String {
        let full = path + "/" + relative
        var folder = ""
        for part in relative.split(separator: "/").dropLast() {
            folder += "/" + part
            mkdir(path + folder, 0o755)
        }
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        precondition(fd >= 0, "cannot create \(full)")
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        chmod(full, mode)
        return full
    }

    func remove() { TempDir.removeTree(path) }

    private static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            if let dir = opendir(path) {
                var names: [String] = []
                while let entry = readdir(dir) {
                    let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                        pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                    }
                    if name != "." && name != ".." { names.append(name) }
                }
                closedir(dir)
                for name in names { removeTree(path + "/" + name) }
            }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}

/// An unlinked temporary file to capture a stream; `contents()` reads it all back.
final class CaptureFile {
    let fd: Int32

    init() {
        var template = Array("/tmp/cloudsync-cli-capture-XXXXXX".utf8CString)
        fd = template.withUnsafeMutableBufferPointer { pointer -> Int32 in
            guard let base = pointer.baseAddress else { return -1 }
            let fd = mkstemp(base)
            if fd >= 0 { unlink(base) }
            return fd
        }
        precondition(fd >= 0, "mkstemp failed")
    }

    deinit { close(fd) }

    func contents() -> String {
        lseek(fd, 0, SEEK_SET)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A hermetic environment: HOME in `home`, no XDG or CLOUDSYNC variables, a PATH with /bin/sh.
func baseEnvironment(home: TempDir, extra: [String: String] = [:]) -> [String: String] {
    var environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
    environment.merge(extra) { $1 }
    return environment
}

/// Runs the dispatcher over `registry` with captured stdout and stderr.
func invoke(_ registry: CommandRegistry, _ arguments: [String], environment: [String: String],
            isTTY: Bool = false) -> Captured {
    let out = CaptureFile()
    let err = CaptureFile()
    let output = Output(stdout: out.fd, stderr: err.fd, isTTY: isTTY)
    let status = Dispatcher(registry: registry, version: "9.8.7")
        .run(arguments: arguments, environment: environment, output: output, isInteractive: false)
    output.flush()
    return Captured(status: status, stdout: out.contents(), stderr: err.contents())
}

/// What the toy commands saw, for assertions.
final class Recorder: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var _arguments: ParsedArguments?
    private var _settings: Settings?

    init() { pthread_mutex_init(&lock, nil) }

    func record(_ arguments: ParsedArguments, _ settings: Settings) {
        pthread_mutex_lock(&lock)
        _arguments = arguments
        _settings = settings
        pthread_mutex_unlock(&lock)
    }

    var arguments: ParsedArguments? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return _arguments
    }

    var settings: Settings? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return _settings
    }
}

/// An error that is neither CLIError nor CloudError.
struct ToyError: Error, CustomStringConvertible {
    var description: String { "the toy broke" }
}

/// A small command table exercising every feature of the parser.
enum Toy {
    static func registry(_ recorder: Recorder = Recorder(), extra: [CommandSpec] = []) -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register(zone(recorder))
        registry.register(echo(recorder))
        registry.register(copy(recorder))
        registry.register(fail)
        registry.register(CommandSpec(name: "secret", abstract: "A hidden command", hidden: true,
                                      run: { context, _ in context.output.line("psst") }))
        for spec in extra { registry.register(spec) }
        return registry
    }

    static func zone(_ recorder: Recorder) -> CommandSpec {
        CommandSpec(
            name: "zone", abstract: "Manage record zones",
            discussion: "Zones group records. Every database has a _defaultZone.",
            subcommands: [
                CommandSpec(
                    name: "create", abstract: "Create record zones",
                    discussion: "Creates each named zone in the chosen database.",
                    options: [
                        OptionSpec("database", short: "d", value: "scope", help: "The database to use.",
                                   completion: .values(["private", "shared", "public"])),
                        OptionSpec("tag", short: "t", value: "tag", help: "A tag for the zone.", repeatable: true),
                        OptionSpec("force", short: "f", help: "Create even if it exists."),
                        OptionSpec("verbose", short: "v", help: "Say more."),
                        OptionSpec("secret-knob", help: "Not for humans.", hidden: true),
                    ],
                    arguments: [ArgumentSpec("zone-name", help: "The zones to create.", repeating: true,
                                             completion: .zoneName)],
                    examples: [Example("cloudsync zone create Notes", "Create the zone Notes.")],
                    run: { context, arguments in
                        recorder.record(arguments, context.settings)
                        context.output.info("creating zones")
                        context.output.line("created \(arguments.arguments("zone-name").joined(separator: ","))")
                    }),
                CommandSpec(
                    name: "list", abstract: "List record zones",
                    run: { context, arguments in
                        recorder.record(arguments, context.settings)
                        if context.output.isJSON {
                            context.output.json(.array([.string("_defaultZone"), .string("Notes")]))
                        } else {
                            context.output.table(["NAME", "RECORDS"], [["_defaultZone", "0"], ["Notes", "12"]])
                        }
                    }),
                CommandSpec(
                    name: "delete", abstract: "Delete a record zone",
                    arguments: [ArgumentSpec("zone-name", help: "The zone to delete.")],
                    run: { _, arguments in
                        throw CloudError(.zoneNotFound, "zone '\(arguments.argument("zone-name") ?? "")' does not exist")
                    }),
            ])
    }

    static func echo(_ recorder: Recorder) -> CommandSpec {
        CommandSpec(
            name: "echo", abstract: "Print the words",
            options: [
                OptionSpec("count", short: "n", value: "n", help: "How many times."),
                OptionSpec("label", value: "text", help: "A label."),
            ],
            arguments: [ArgumentSpec("word", help: "Words to print.", optional: true, repeating: true)],
            run: { context, arguments in
                recorder.record(arguments, context.settings)
                context.output.line("\(arguments.arguments("word").joined(separator: " "))")
            })
    }

    static func copy(_ recorder: Recorder) -> CommandSpec {
        CommandSpec(
            name: "copy", abstract: "Copy a record",
            arguments: [
                ArgumentSpec("source", help: "From."),
                ArgumentSpec("destination", help: "To."),
                ArgumentSpec("mode", help: "How.", optional: true, completion: .values(["fast", "slow"])),
            ],
            run: { context, arguments in recorder.record(arguments, context.settings) })
    }

    static let fail = CommandSpec(
        name: "fail", abstract: "Fail on purpose",
        options: [
            OptionSpec("cloud-code", value: "code", help: "Throw this CloudError code."),
            OptionSpec("cli", value: "kind", help: "Throw this CLIError.",
                       completion: .values(["usage", "badInput", "notFound", "failed", "exit"])),
            OptionSpec("retry-after", value: "seconds", help: "retryAfter of the CloudError."),
            OptionSpec("swift", help: "Throw a plain Swift error."),
        ],
        run: { _, arguments in
            if let name = arguments.value("cloud-code"), let code = CloudError.Code(rawValue: name) {
                throw CloudError(code, "it went wrong: \(name)",
                                 retryAfter: arguments.value("retry-after").flatMap(Double.init))
            }
            switch arguments.value("cli") {
            case "usage": throw CLIError.usage("bad usage")
            case "badInput": throw CLIError.badInput("bad input")
            case "notFound": throw CLIError.notFound("no such thing")
            case "failed": throw CLIError.failed("it failed")
            case "exit": throw CLIError.exit(42)
            default: break
            }
            if arguments.flag("swift") { throw ToyError() }
        })
}
