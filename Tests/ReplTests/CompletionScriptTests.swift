import Glibc
import TestSupport
import Testing

/// The committed completion scripts: valid for their shells, and completing in real shells.
@Suite struct CompletionScriptTests {
    static let bash = PackageFolder.path + "/completions/cloudsync.bash"
    static let zsh = PackageFolder.path + "/completions/_cloudsync"
    static let fish = PackageFolder.path + "/completions/cloudsync.fish"

    /// A home with a cloud that has the zones Notes and Notebook and a record type Note.
    static func populatedHome() -> TemporaryDirectory {
        let home = TemporaryDirectory("completion")
        let runner = BinaryRunner(home: home.path)
        #expect(runner.run(["zone", "create", "Notes", "Notebook"], device: "laptop").status == 0)
        #expect(runner.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "a=1"], device: "laptop").status == 0)
        return home
    }

    static func environment(_ home: TemporaryDirectory) -> [String: String] {
        var environment = BinaryRunner(home: home.path).environment
        environment["PATH"] = BinaryRunner.productsDirectory + ":/usr/bin:/bin"
        environment["CLOUDSYNC_DEVICE"] = "laptop"
        return environment
    }

    @Test func theShellsAcceptTheScripts() throws {
        if let result = Tool.bash.run(["-n", Self.bash]) { #expect(result.status == 0, "\(result.stderr)") }
        if let result = Tool.zsh.run(["-n", Self.zsh]) { #expect(result.status == 0, "\(result.stderr)") }
        if let result = Tool.fish.run(["-n", Self.fish]) { #expect(result.status == 0, "\(result.stderr)") }
    }

    /// COMPREPLY of `_cloudsync` in a real bash that sourced the script, for the given words
    /// (the last one is the word under the cursor).
    static func bashComplete(_ words: [String], home: TemporaryDirectory) -> [String]? {
        let program = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _cloudsync
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        guard let result = Tool.bash.run(["--norc", "--noprofile", "-c", program, "bash", Self.bash] + words,
                                         environment: environment(home)) else { return nil }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesSubcommandsOptionsAndLiveValues() throws {
        let home = Self.populatedHome()
        #expect(Self.bashComplete(["cloudsync", "zo"], home: home) == ["zone"])
        #expect(Self.bashComplete(["cloudsync", "zone", ""], home: home) == ["create", "list", "delete"])
        #expect(Self.bashComplete(["cloudsync", "record", "q"], home: home) == ["query"])
        #expect(Self.bashComplete(["cloudsync", "--device", "phone", "zone", "cr"], home: home) == ["create"])
        #expect(Self.bashComplete(["cloudsync", "zone", "create", "--d"], home: home) == ["--database", "--device"])
        #expect(Self.bashComplete(["cloudsync", "zone", "create", "--database", "p"], home: home) == ["private", "public"])
        #expect(Self.bashComplete(["cloudsync", "zone", "delete", "Note"], home: home)?.sorted() == ["Notebook", "Notes"])
        #expect(Self.bashComplete(["cloudsync", "fetch-changes", "--zone", "=", "Noteb"], home: home) == ["Notebook"],
                "--zone=Noteb as COMP_WORDBREAKS splits it")
        #expect(Self.bashComplete(["cloudsync", "record", "query", ""], home: home) == ["Note"])
        #expect(Self.bashComplete(["cloudsync", "help", "zone", "d"], home: home) == ["delete"])
        #expect(Self.bashComplete(["cloudsync", "zone", "create", "x", ""], home: home) == [], "free text: nothing")
    }

    @Test func bashFallsBackToFileNamesWhereTheTableSaysSo() throws {
        let home = Self.populatedHome()
        home.write("fields.json", "{}")
        let completed = Self.bashComplete(["cloudsync", "record", "save", "--fields-json", home.path + "/fie"], home: home)
        #expect(completed == [home.path + "/fields.json"])
    }

    @Test func fishCompletesSubcommandsAndLiveValues() throws {
        let home = Self.populatedHome()
        func complete(_ line: String) -> [String]? {
            guard let result = Tool.fish.run(["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", Self.fish, line],
                                             environment: Self.environment(home)) else { return nil }
            #expect(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(complete("cloudsync zo") == ["zone"])
        #expect(complete("cloudsync zone ")?.sorted() == ["create", "delete", "list"])
        #expect(complete("cloudsync zone delete Note")?.sorted() == ["Notebook", "Notes"])
        #expect(complete("cloudsync fetch-changes --zone Noteb") == ["Notebook"])
        #expect(complete("cloudsync zone create --database p")?.sorted() == ["private", "public"])
    }

    @Test func zshCompletesInARealTerminal() throws {
        let home = Self.populatedHome()
        guard let zsh = Tool.zsh.path() else { return }
        var environment = Self.environment(home)
        environment["TERM"] = "screen"
        let assignments = environment.sorted { $0.key < $1.key }.map { TmuxSession.quoted($0.key + "=" + $0.value) }
        let command = (["exec", "env", "-i"] + assignments + [zsh, "-f"]).joined(separator: " ")
        guard let shell = TmuxSession(command, folder: home.path) else { return }
        shell.type("PS1='zsh> '; autoload -U compinit && compinit -u -D && source \(TmuxSession.quoted(Self.zsh)) && echo READY")
        shell.press("Enter")
        shell.waitFor("\nREADY")
        shell.type("cloudsync zo")
        shell.press("Tab")
        shell.type("del")
        shell.press("Tab")
        shell.type("Noteb")
        shell.press("Tab")
        shell.waitFor("zsh> cloudsync zone delete Notebook")
    }
}
