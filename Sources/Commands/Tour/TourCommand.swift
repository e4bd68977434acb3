import CloudSyncCLI
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync tour`: a short, non-interactive walk through what works, on a throwaway
/// `CLOUDSYNC_HOME`, with two devices of one account. Each step runs the real binary as a
/// user would type it; the tour fails if any step ends with an unexpected status.
public enum TourCommand {
    /// The command table entry.
    public static let spec = CommandSpec(
        name: "tour",
        abstract: "Walk through cloudsync with two devices on a throwaway cloud.",
        discussion: """
            Creates a temporary CLOUDSYNC_HOME, plays Alice's laptop and phone against one embedded \
            cloud, prints every command before running it, and removes the folder afterwards \
            (unless --keep). Exits 1 if any step does not end as expected.
            """,
        options: [OptionSpec("keep", help: "Keep the temporary folder and print its path.")],
        examples: [Example("cloudsync tour", "Run the tour.")],
        jsonOutput: TourJSONOutput.tour,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        if context.output.isJSON { throw CLIError.usage("the tour is for people and has no --json output") }
        let output = context.output
        let binary = try selfExecutable()
        let home = try makeTemporaryHome()
        let keep = arguments.flag("keep")
        defer { if !keep { removeTree(home) } }
        var environment = context.environment
        for key in environment.keys where key.hasPrefix("CLOUDSYNC_") { environment[key] = nil }
        environment["CLOUDSYNC_HOME"] = home
        environment["CLOUDSYNC_ACCOUNT"] = "alice"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_STATE_HOME"] = home + "/state"
        environment["NO_COLOR"] = "1"
        environment["CLOUDSYNC_PASSPHRASE"] = "tour passphrase"

        output.line("cloudsync tour: Alice's laptop and phone share one embedded cloud in \(home)")
        var failures: [String] = []
        for (index, step) in TourScript.steps.enumerated() {
            output.line("")
            output.line("\(index + 1). \(step.title)")
            let shown = (["cloudsync", "--device", step.device] + step.arguments).map(shellQuoted).joined(separator: " ")
            output.line("   $ \(shown)")
            output.flush()
            let status: Int32
            do {
                status = try ProcessRunner.run(binary, argv0: "cloudsync", arguments: ["--device", step.device] + step.arguments,
                                               environment: environment)
            } catch {
                throw CLIError.failed("tour step \(index + 1): \(error)")
            }
            if status != step.expectedStatus {
                failures.append("step \(index + 1) (\(step.title)) exited \(status), expected \(step.expectedStatus)")
            } else if status != 0 {
                output.line("   (exit \(status), as expected)")
            }
        }
        output.line("")
        if keep { output.line("kept \(home)") }
        guard failures.isEmpty else {
            throw CLIError.failed("tour failed: " + failures.joined(separator: "; "))
        }
        output.line("Tour complete: \(TourScript.steps.count) steps. See 'cloudsync help' for every command.")
    }

    static func shellQuoted(_ word: String) -> String {
        let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=,@%".contains($0) }
        return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences("'", "'\\''") + "'"
    }

    static func selfExecutable() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        }
        guard n > 0 else { throw CLIError.failed("cannot find the cloudsync executable (/proc/self/exe)") }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    static func makeTemporaryHome() throws -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/cloudsync-tour.XXXXXX".utf8) + [0]
        let made = template.withUnsafeMutableBufferPointer { pointer in
            pointer.withMemoryRebound(to: CChar.self) { mkdtemp($0.baseAddress!) != nil }
        }
        guard made else { throw CLIError.failed("cannot create a temporary folder in \(base)") }
        return String(decoding: template.dropLast(), as: UTF8.self)
    }

    static func removeTree(_ path: String) {
        guard let dir = opendir(path) else { unlink(path); return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        for name in names {
            let child = path + "/" + name
            var info = stat()
            if lstat(child, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { removeTree(child) } else { unlink(child) }
        }
        rmdir(path)
    }
}

extension String {
    func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
