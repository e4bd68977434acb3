import CloudSyncCLI
import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Suite struct PluginTests {
    static let script = """
        #!/bin/sh
        echo "args:$*"
        echo "account:$CLOUDSYNC_ACCOUNT device:$CLOUDSYNC_DEVICE home:$CLOUDSYNC_HOME"
        echo "cloud:$CLOUDSYNC_CLOUD container:$CLOUDSYNC_CONTAINER"
        echo "argv0:$(basename "$0")"
        echo "plugin stderr" >&2
        exit 7

        """

    @Test func pluginRunsWithArgumentsContextAndStatus() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-hello", Self.script, mode: 0o755)
        let environment = baseEnvironment(home: home, extra: [
            "CLOUDSYNC_EXEC_PATH": home.path + "/bin", "CLOUDSYNC_DEVICE": "envdev",
        ])
        let result = invoke(Toy.registry(), ["--account", "alice", "hello", "one", "--json", "two words"],
                            environment: environment)
        #expect(result.status == 7)
        #expect(result.stdout == """
            args:one --json two words
            account:alice device:envdev home:\(home.path)/.local/share/cloudsync
            cloud:sqlite://\(home.path)/.local/share/cloudsync/cloud.sqlite container:iCloud.com.example.App
            argv0:cloudsync-hello

            """)
        #expect(result.stderr == "plugin stderr\n")
    }

    @Test func execPathComesBeforePath() {
        let home = TempDir()
        defer { home.remove() }
        home.write("exec/cloudsync-hello", "#!/bin/sh\necho exec\n", mode: 0o755)
        home.write("path/cloudsync-hello", "#!/bin/sh\necho path\n", mode: 0o755)
        home.write("path/cloudsync-other", "#!/bin/sh\necho other\n", mode: 0o755)
        home.write("path/cloudsync-notexec", "#!/bin/sh\necho nope\n", mode: 0o644)
        let environment = baseEnvironment(home: home, extra: [
            "CLOUDSYNC_EXEC_PATH": home.path + "/exec", "PATH": home.path + "/path:/usr/bin:/bin",
        ])
        #expect(invoke(Toy.registry(), ["hello"], environment: environment).stdout == "exec\n")
        #expect(invoke(Toy.registry(), ["other"], environment: environment).stdout == "other\n")
        let notExecutable = invoke(Toy.registry(), ["notexec"], environment: environment)
        #expect(notExecutable.status == 64)
        #expect(notExecutable.stderr.contains("'notexec' is not a cloudsync command"))
    }

    @Test func builtinsWinOverPlugins() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-echo", "#!/bin/sh\necho plugin\nexit 9\n", mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin"])
        let result = invoke(Toy.registry(), ["echo", "builtin"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout == "builtin\n")
    }

    @Test func helpAllListsBuiltinsAndPlugins() {
        let home = TempDir()
        defer { home.remove() }
        let hello = home.write("bin/cloudsync-hello", Self.script, mode: 0o755)
        home.write("bin/cloudsync-echo", "#!/bin/sh\n", mode: 0o755)
        home.write("bin/unrelated", "#!/bin/sh\n", mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin"])
        let result = invoke(Toy.registry(), ["help", "-a"], environment: environment)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("NAME\n  cloudsync - "))
        #expect(result.stdout.contains("USAGE\n  cloudsync [--account <name>]"))
        #expect(result.stdout.contains("COMMANDS\n  zone                      Manage record zones\n"))
        #expect(result.stdout.contains("  help                      Show help"))
        #expect(result.stdout.contains("PLUGINS ON $CLOUDSYNC_EXEC_PATH AND $PATH\n  hello"))
        #expect(result.stdout.contains(hello))
        #expect(!result.stdout.contains("unrelated"))
        #expect(!result.stdout.contains("cloudsync-echo"))
        #expect(!result.stdout.contains("secret"))

        let json = invoke(Toy.registry(), ["help", "--all", "--json"], environment: environment)
        #expect(json.status == 0)
        #expect(json.stdout.contains("{\"name\":\"hello\",\"path\":\"\(hello)\"}"))
        #expect(json.stdout.hasPrefix("{\"commands\":[{\"name\":\"zone\",\"abstract\":\"Manage record zones\"}"))
    }

    @Test func helpForAPluginRunsItWithHelp() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-hello", "#!/bin/sh\necho \"help for hello: $*\"\n", mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin"])
        for arguments in [["help", "hello"], ["--help", "hello"]] {
            let result = invoke(Toy.registry(), arguments, environment: environment)
            #expect(result.status == 0)
            #expect(result.stdout == "help for hello: --help\n")
        }
    }

    @Test func pluginsAreSuggestedForTypos() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-hello", "#!/bin/sh\n", mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin"])
        let result = invoke(Toy.registry(), ["helo"], environment: environment)
        #expect(result.status == 64)
        #expect(result.stderr.contains("Did you mean 'hello' or 'help'?"))
    }

    @Test func signalDeathIs128PlusSignal() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-boom", "#!/bin/sh\nkill -TERM $$\n", mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin"])
        #expect(invoke(Toy.registry(), ["boom"], environment: environment).status == 128 + 15)
    }

    @Test func noColorIsPassedOnAndInvalidContextStopsThePlugin() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-env", "#!/bin/sh\necho \"NO_COLOR=$NO_COLOR\"\n", mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin"])
        #expect(invoke(Toy.registry(), ["--no-color", "env"], environment: environment).stdout == "NO_COLOR=1\n")
        let bad = invoke(Toy.registry(), ["--account", "bad name", "env"], environment: environment)
        #expect(bad.status == 64)
        #expect(bad.stdout.isEmpty)
    }

    @Test func processRunnerReportsSpawnFailures() {
        #expect(throws: ProcessRunner.Failure.self) {
            try ProcessRunner.run("/nonexistent/program", arguments: [], environment: [:])
        }
    }
}

/// A program that another process still holds open for writing cannot be executed (ETXTBSY);
/// the handle goes away when that process execs or closes it, so the runner waits it out.
@Suite("ProcessRunner: a program busy being written")
struct ProcessRunnerBusyTests {
    @Test func aProgramHeldOpenForWritingRunsOnceTheWriterLetsGo() throws {
        let home = TempDir()
        defer { home.remove() }
        let script = home.write("bin/cloudsync-fresh", "#!/bin/sh\nexit 7\n", mode: 0o755)
        let held = home.path + "/held"
        // Another process holds the program open for writing for 0.3 s (a thread of this one
        // was not enough: on a loaded machine the global queue ran its `close` only after the
        // runner had given up), and says so before the runner starts.
        let writer = try ProcessRunner.start("/bin/sh", arguments: ["-c", "exec 3>>\"$1\"; : > \"$2\"; sleep 0.3", "sh", script, held],
                                             environment: [:])
        var waited = 0
        while access(held, F_OK) != 0 && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        #expect(access(held, F_OK) == 0, "the writer opened the program")
        let status = try ProcessRunner.run(script, arguments: [], environment: [:])
        #expect(status == 7)
        #expect(try ProcessRunner.wait(writer) == 0)
    }
}
