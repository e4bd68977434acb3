import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 17 items 8 and 12 through the built binary: a malformed `CLOUDSYNC_FAULTS`, and files
/// read implicitly (the config) or as scripts that are FIFOs, devices or endless, give a
/// one-line error and an exit status, never a trap or a hang.
@Suite("hostile files and settings (end to end)")
struct HostileFileTests {
    let home = TemporaryDirectory("hostile-files")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    @Test func malformedFaultPlansAreUsageErrors() {
        for plan in ["@", ":", "@:2", "networkUnavailable@", "networkUnavailable:0", "bogusCode"] {
            let result = cli.run(["zone", "list"], env: ["CLOUDSYNC_FAULTS": plan])
            #expect(result.status == 64, "\(plan): \(result.stderr)")
            #expect(result.stderr.hasPrefix("cloudsync: error: "), "\(plan)")
            #expect(result.stderr.contains("CLOUDSYNC_FAULTS"), "\(plan)")
            // One line: the command line is fine, so no usage reminder follows the setting's error.
            #expect(result.stderr.split(separator: "\n").count == 1, "\(plan): \(result.stderr)")
        }
        #expect(cli.run(["zone", "list"], env: ["CLOUDSYNC_FAULTS": ",,"]).status == 0)
    }

    @Test func configThatIsAFIFOOrADeviceIsRefusedWithoutHanging() throws {
        let fifo = home.file("config-fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let zero = home.file("config-zero")
        #expect(symlink("/dev/zero", zero) == 0)
        home.makeDirectory("config-folder")
        for (path, kind) in [(fifo, "a FIFO"), (zero, "a character device"), (home.file("config-folder"), "a folder")] {
            let result = cli.run(["zone", "list"], env: ["CLOUDSYNC_CONFIG": path])
            #expect(result.status == 64, "\(path): \(result.stderr)")
            #expect(result.stderr.hasPrefix("cloudsync: error: the config file \(path) is \(kind), not a regular file\n"))
        }
        #expect(cli.run(["zone", "list"], env: ["CLOUDSYNC_CONFIG": "/dev/null"]).status == 0)
        let big = home.write("config-big", "# " + String(repeating: "x", count: 1 << 20) + "\naccount = bob\n")
        let tooLarge = cli.run(["zone", "list"], env: ["CLOUDSYNC_CONFIG": big])
        #expect(tooLarge.status == 64)
        #expect(tooLarge.stderr.hasPrefix("cloudsync: error: the config file \(big) is larger than 1 MiB\n"))
    }

    @Test func scriptWithoutLineBreaksStopsAtTheLineLimit() {
        let result = cli.run(["repl", "/dev/zero"])
        #expect(result.status == 65)
        #expect(result.stderr == "cloudsync: error: /dev/zero:1: a line is longer than 1 MiB; stopped\n")
        let script = home.write("ok.cloudsync", "zone list \\\n  --json\n")
        #expect(cli.run(["repl", script]).status == 0)
    }
}
