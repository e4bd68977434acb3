import CloudSyncCLI
import CloudSyncOTP
import OTPCommand
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The work `otp code QUERY` does, counted in-process (issue 16: it runs on every use, so it
/// must read and match the label index once, not once to look for an ambiguity and again to
/// resolve the token).
@Suite("otp code's work", .serialized)
struct OTPCodeWorkTests {
    let home = TemporaryDirectory("otp-work")

    /// Runs a command line in-process with its output on /dev/null; the exit status.
    func run(_ arguments: [String]) -> Int32 {
        var registry = CommandRegistry()
        registry.register(OTPCommand.spec)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        let environment = ["CLOUDSYNC_HOME": home.path, "CLOUDSYNC_ACCOUNT": "work", "CLOUDSYNC_DEVICE": "laptop",
                           "HOME": home.path, "XDG_CONFIG_HOME": home.path + "/config", "PATH": "/usr/bin:/bin"]
        return Dispatcher(registry: registry, version: "1")
            .run(arguments: arguments, environment: environment, output: Output(stdout: null, stderr: null, isTTY: false),
                 isInteractive: false)
    }

    /// The label-index lookups `arguments` made, and its exit status.
    func lookups(_ arguments: [String]) -> (count: Int, status: Int32) {
        let before = OTPTokenStore.finds.load(ordering: .relaxed)
        let status = run(arguments)
        return (OTPTokenStore.finds.load(ordering: .relaxed) - before, status)
    }

    @Test func codeMatchesTheLabelIndexOnce() {
        for name in ["GitHub", "GitLab", "Counter"] {
            let type = name == "Counter" ? ["--type", "hotp"] : []
            #expect(run(["otp", "add", name, "--generate"] + type) == 0)
        }
        // One match, an ambiguous query (each match's code), --exact refusing it, none, HOTP.
        #expect(lookups(["otp", "code", "github", "-q"]) == (1, 0))
        #expect(lookups(["otp", "code", "git", "-q"]) == (1, 0))
        #expect(lookups(["otp", "code", "git", "--exact"]) == (1, ExitCode.failure.rawValue))
        #expect(lookups(["otp", "code", "nothing"]) == (1, ExitCode.notFound.rawValue))
        #expect(lookups(["otp", "code", "counter"]) == (1, 0))
    }
}
