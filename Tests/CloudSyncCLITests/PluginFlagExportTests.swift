import CloudSyncCLI
import TestSupport
import Testing

/// Plugins see the global output flags as `CLOUDSYNC_JSON`, `CLOUDSYNC_QUIET` and
/// `CLOUDSYNC_NO_COLOR` (1 when set, absent otherwise), and `help PLUGIN` runs the plugin with
/// the same context as a plain run.
@Suite("Plugins: exported flags and help context")
struct PluginFlagExportTests {
    static let script = """
        #!/bin/sh
        echo "json=${CLOUDSYNC_JSON-unset} quiet=${CLOUDSYNC_QUIET-unset} nocolor=${CLOUDSYNC_NO_COLOR-unset}"
        echo "account=$CLOUDSYNC_ACCOUNT device=$CLOUDSYNC_DEVICE args=$*"

        """

    @Test func flagsAreExportedAsOneWhenSet() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-flags", Self.script, mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin",
                                                              "CLOUDSYNC_DEVICE": "d1"])
        let all = invoke(Toy.registry(), ["--json", "-q", "--no-color", "flags", "x"], environment: environment)
        #expect(all.status == 0)
        #expect(all.stdout.hasPrefix("json=1 quiet=1 nocolor=1\n"))
        let none = invoke(Toy.registry(), ["flags"], environment: environment)
        #expect(none.stdout.hasPrefix("json=unset quiet=unset nocolor=unset\n"))
        let noColorVariable = invoke(Toy.registry(), ["flags"], environment: environment.merging(["NO_COLOR": "yes"]) { $1 })
        #expect(noColorVariable.stdout.hasPrefix("json=unset quiet=unset nocolor=1\n"))
    }

    @Test func theFlagVariablesAreSettingsTooAndPassOn() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-flags", Self.script, mode: 0o755)
        var environment = baseEnvironment(home: home, extra: [
            "CLOUDSYNC_EXEC_PATH": home.path + "/bin", "CLOUDSYNC_DEVICE": "d1",
            "CLOUDSYNC_JSON": "yes", "CLOUDSYNC_QUIET": "1", "CLOUDSYNC_NO_COLOR": "0",
        ])
        let result = invoke(Toy.registry(), ["flags"], environment: environment)
        #expect(result.stdout.hasPrefix("json=1 quiet=1 nocolor=unset\n"))
        // An empty or 0 value is off, and is not passed on.
        environment["CLOUDSYNC_JSON"] = ""
        environment["CLOUDSYNC_QUIET"] = "0"
        #expect(invoke(Toy.registry(), ["flags"], environment: environment).stdout.hasPrefix("json=unset quiet=unset nocolor=unset\n"))
    }

    @Test func helpForAPluginPassesTheContext() {
        let home = TempDir()
        defer { home.remove() }
        home.write("bin/cloudsync-flags", Self.script, mode: 0o755)
        let environment = baseEnvironment(home: home, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin",
                                                              "CLOUDSYNC_DEVICE": "d1"])
        for arguments in [["--account", "bob", "--json", "help", "flags"], ["--account", "bob", "--json", "flags", "--help"],
                          ["help", "flags", "--account", "bob", "--json"]] {
            let result = invoke(Toy.registry(), arguments, environment: environment)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout == "json=1 quiet=unset nocolor=unset\naccount=bob device=d1 args=--help\n", "\(arguments)")
        }
        let bad = invoke(Toy.registry(), ["--account", "bad name", "help", "flags"], environment: environment)
        #expect(bad.status == 64)
        #expect(bad.stdout.isEmpty)
    }

    @Test func theBinaryExportsTheFlags() {
        let home = TemporaryDirectory("plugin-flags")
        home.makeDirectory("bin")
        home.write("bin/cloudsync-flags", Self.script, mode: 0o755)
        let cli = BinaryRunner(home: home.path, extra: ["CLOUDSYNC_EXEC_PATH": home.path + "/bin",
                                                        "CLOUDSYNC_DEVICE": "laptop"])
        let run = cli.run(["--quiet", "flags", "a"])
        #expect(run.status == 0)
        #expect(run.stdout == "json=unset quiet=1 nocolor=unset\naccount=alice device=laptop args=a\n")
        let help = cli.run(["--no-color", "--device", "phone", "help", "flags"])
        #expect(help.status == 0)
        #expect(help.stdout == "json=unset quiet=unset nocolor=1\naccount=alice device=phone args=--help\n")
    }
}
