import CloudSyncCLI
import Testing

@Suite struct ParsingTests {
    func run(_ arguments: [String], recorder: Recorder = Recorder()) -> (Captured, Recorder) {
        let home = TempDir()
        defer { home.remove() }
        let result = invoke(Toy.registry(recorder), arguments, environment: baseEnvironment(home: home))
        return (result, recorder)
    }

    @Test func longOptionWithSeparateAndInlineValues() {
        let (result, recorder) = run(["zone", "create", "--database", "shared", "--tag=a", "--tag", "b", "Notes"])
        #expect(result.status == 0)
        #expect(result.stdout == "created Notes\n")
        let arguments = recorder.arguments
        #expect(arguments?.value("database") == "shared")
        #expect(arguments?.values("tag") == ["a", "b"])
        #expect(arguments?.value("tag") == "b")
        #expect(arguments?.argument("zone-name") == "Notes")
        #expect(arguments?.commandPath == ["zone", "create"])
    }

    @Test func shortOptionsClustersAndAttachedValues() {
        let (result, recorder) = run(["zone", "create", "-fv", "-dpublic", "-t", "x", "A", "B"])
        #expect(result.status == 0)
        let arguments = recorder.arguments
        #expect(arguments?.flag("force") == true)
        #expect(arguments?.flag("verbose") == true)
        #expect(arguments?.value("database") == "public")
        #expect(arguments?.values("tag") == ["x"])
        #expect(arguments?.arguments("zone-name") == ["A", "B"])
    }

    @Test func repeatedFlagsCount() {
        let (_, recorder) = run(["zone", "create", "-v", "--verbose", "-vv", "Z"])
        #expect(recorder.arguments?.count("verbose") == 4)
        #expect(recorder.arguments?.flag("force") == false)
    }

    @Test func globalOptionsBeforeAndAfterTheCommand() {
        let (before, recorder1) = run(["--account", "alice", "-q", "--json", "zone", "list"])
        #expect(before.status == 0)
        #expect(recorder1.settings?.account == "alice")
        #expect(recorder1.settings?.quiet == true)
        #expect(recorder1.settings?.json == true)
        #expect(before.stdout == "[\"_defaultZone\",\"Notes\"]\n")

        let (after, recorder2) = run(["zone", "list", "--json", "--account=bob", "--device", "phone"])
        #expect(after.status == 0)
        #expect(recorder2.settings?.account == "bob")
        #expect(recorder2.settings?.device == "phone")
        #expect(after.stdout == "[\"_defaultZone\",\"Notes\"]\n")

        let (between, recorder3) = run(["zone", "--account", "carol", "create", "Z"])
        #expect(between.status == 0)
        #expect(recorder3.settings?.account == "carol")
    }

    @Test func doubleDashEndsOptions() {
        let (result, recorder) = run(["echo", "--", "--json", "-q", "--help"])
        #expect(result.status == 0)
        #expect(recorder.arguments?.arguments("word") == ["--json", "-q", "--help"])
        #expect(recorder.settings?.json == false)
        #expect(result.stdout == "--json -q --help\n")
    }

    @Test func negativeNumbersAreValuesAndPositionals() {
        let (result, recorder) = run(["echo", "--count", "-5", "-3.5", "-", "x"])
        #expect(result.status == 0)
        #expect(recorder.arguments?.value("count") == "-5")
        #expect(recorder.arguments?.arguments("word") == ["-3.5", "-", "x"])
        let (short, recorder2) = run(["echo", "-n", "-7"])
        #expect(short.status == 0)
        #expect(recorder2.arguments?.value("count") == "-7")
    }

    @Test func valueMayStartWithDashWhenInline() {
        let (result, recorder) = run(["echo", "--label=--weird", "x"])
        #expect(result.status == 0)
        #expect(recorder.arguments?.value("label") == "--weird")
    }

    @Test func flagGivenAValueIsAUsageError() {
        let (result, _) = run(["zone", "list", "--json=1"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("cloudsync: error: option '--json' is a flag and takes no value\n"))
        let (own, _) = run(["zone", "create", "--force=yes", "Z"])
        #expect(own.status == 64)
        #expect(own.stderr.contains("'--force' is a flag"))
    }

    @Test func missingValueIsAUsageError() {
        let (atEnd, _) = run(["echo", "--label"])
        #expect(atEnd.status == 64)
        #expect(atEnd.stderr.contains("option '--label' needs a value <text>"))
        let (beforeOption, _) = run(["--account", "--json", "zone", "list"])
        #expect(beforeOption.status == 64)
        #expect(beforeOption.stderr.contains("needs a value <name>"))
        let (short, _) = run(["zone", "create", "Z", "-d"])
        #expect(short.status == 64)
        #expect(short.stderr.contains("option '-d' needs a value <scope>"))
    }

    @Test func unknownOptionsSuggestTheClosest() {
        let (result, _) = run(["zone", "list", "--jsno"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("cloudsync: error: unknown option '--jsno'\nDid you mean '--json'?\n"))
        #expect(result.stderr.contains("usage: cloudsync zone list"))
        #expect(result.stderr.contains("See 'cloudsync zone list --help'."))

        let (own, _) = run(["zone", "create", "--databse", "shared", "Z"])
        #expect(own.stderr.contains("Did you mean '--database'?"))

        let (far, _) = run(["zone", "create", "--xyzzy", "Z"])
        #expect(far.status == 64)
        #expect(!far.stderr.contains("Did you mean"))

        let (singleDash, _) = run(["zone", "create", "-force", "Z"])
        #expect(singleDash.status == 64)
        #expect(singleDash.stderr.contains("Did you mean '--force'?"))

        let (global, _) = run(["--acount", "x", "zone", "list"])
        #expect(global.status == 64)
        #expect(global.stderr.contains("Did you mean '--account'?"))
        #expect(global.stderr.contains("See 'cloudsync --help'."))
    }

    @Test func optionsOfOtherCommandsAreUnknown() {
        let (result, _) = run(["zone", "list", "--database", "shared"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown option '--database'"))
    }

    @Test func closedValueSetsAreValidated() {
        let (result, _) = run(["zone", "create", "--database", "sharde", "Z"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("invalid value 'sharde' for --database: expected 'private', 'shared', 'public'"))
        #expect(result.stderr.contains("Did you mean 'shared'?"))
        let (argument, _) = run(["copy", "a", "b", "medium"])
        #expect(argument.status == 64)
        #expect(argument.stderr.contains("invalid value 'medium' for <mode>"))
    }

    @Test func positionalBinding() {
        let (two, recorder) = run(["copy", "a", "b"])
        #expect(two.status == 0)
        #expect(recorder.arguments?.argument("source") == "a")
        #expect(recorder.arguments?.argument("destination") == "b")
        #expect(recorder.arguments?.argument("mode") == nil)

        let (three, recorder3) = run(["copy", "a", "b", "fast"])
        #expect(three.status == 0)
        #expect(recorder3.arguments?.argument("mode") == "fast")

        let (missing, _) = run(["copy", "a"])
        #expect(missing.status == 64)
        #expect(missing.stderr.contains("cloudsync: error: missing argument <destination>"))
        #expect(missing.stderr.contains("usage: cloudsync copy <source> <destination> [<mode>]"))

        let (extra, _) = run(["copy", "a", "b", "fast", "d"])
        #expect(extra.status == 64)
        #expect(extra.stderr.contains("unexpected argument 'd'"))

        let (noZone, _) = run(["zone", "create"])
        #expect(noZone.status == 64)
        #expect(noZone.stderr.contains("missing argument <zone-name>"))

        let (noWords, recorder4) = run(["echo"])
        #expect(noWords.status == 0)
        #expect(recorder4.arguments?.arguments("word") == [])
    }

    @Test func subcommandResolution() {
        let (typo, _) = run(["zone", "crate", "Z"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("unknown subcommand 'crate' for 'cloudsync zone'\nDid you mean 'create'?"))

        let (bare, _) = run(["zone"])
        #expect(bare.status == 64)
        #expect(bare.stdout.isEmpty)
        #expect(bare.stderr.contains("USAGE\n  cloudsync zone <subcommand> [<args>]"))
        #expect(bare.stderr.contains("create"))
    }

    @Test func hiddenCommandsRunButAreNotListed() {
        let (result, _) = run(["secret"])
        #expect(result.status == 0)
        #expect(result.stdout == "psst\n")
        let (help, _) = run(["--help"])
        #expect(!help.stdout.contains("secret"))
        let (hiddenOption, recorder) = run(["zone", "create", "--secret-knob", "Z"])
        #expect(hiddenOption.status == 0)
        #expect(recorder.arguments?.flag("secret-knob") == true)
    }

    @Test func bareInvocationPrintsHelpOrOpensTheREPL() {
        let home = TempDir()
        defer { home.remove() }
        let bare = invoke(Toy.registry(), [], environment: baseEnvironment(home: home))
        #expect(bare.status == 64)
        #expect(bare.stdout.isEmpty)
        #expect(bare.stderr.hasPrefix("NAME\n  cloudsync - "))

        let repl = CommandSpec(name: "repl", abstract: "Read commands", run: { context, arguments in
            context.output.line("repl for \(context.settings.account), path \(arguments.commandPath)")
        })
        let withREPL = invoke(Toy.registry(extra: [repl]), ["--account", "al"], environment: baseEnvironment(home: home))
        #expect(withREPL.status == 0)
        #expect(withREPL.stdout == "repl for al, path [\"repl\"]\n")
    }

    @Test func versionPrintsTheVersion() {
        let (result, _) = run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "cloudsync 9.8.7\n")
        let (late, _) = run(["zone", "list", "--version"])
        #expect(late.stdout == "cloudsync 9.8.7\n")
    }

    @Test func strangeInputNeverCrashes() {
        let inputs: [[String]] = [
            ["--"], ["-"], ["--="], ["--=x"], ["-="], ["---"], ["--json", "--"], ["zone", "--"], ["zone", "-"],
            [""], ["zone", ""], ["echo", "\u{0}"], ["-\u{301}"], ["--\u{1F600}"], ["copy", "--", "-a", "-b"],
            ["help", "--", "zone"], ["zone", "create", "--tag"], ["-qqqq"], ["-h", "-h"], ["zone", "-5"],
        ]
        for input in inputs {
            let (result, _) = run(input)
            #expect([0, 64].contains(result.status), "\(input) -> \(result.status)")
        }
    }

    @Test func parsedArgumentsCanBeBuiltByHand() {
        let arguments = ParsedArguments(commandPath: ["zone", "create"], flags: ["force"],
                                        values: ["tag": ["a", "b"]], arguments: ["zone-name": ["N"]])
        #expect(arguments.flag("force"))
        #expect(arguments.value("tag") == "b")
        #expect(arguments.argument("zone-name") == "N")
        #expect(arguments.arguments("missing") == [])
    }
}
