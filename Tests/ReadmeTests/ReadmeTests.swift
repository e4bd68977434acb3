import CloudSyncCore
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// README.md's blocks, pasted in order into a fresh home, do what the README says: every ```sh
/// block runs, line by line, in one bash process (so `export`s carry over) with a fresh HOME,
/// CLOUDSYNC_HOME and XDG folders, the built `cloudsync` first on PATH and no terminal; each line
/// must exit 0 unless a claim (the `<!-- readme-test … -->` comment after its block, see
/// ReadmeDocument) says otherwise, and must print what its claims say. REPL transcripts
/// (```text blocks of `account@device>` lines) are fed to `cloudsync repl` in their place.
/// What cannot run as written is in ReadmeStandIns, with the reason.
@Suite("README blocks, in order, in a fresh home (end to end)")
struct ReadmeTests {
    static let repository: String = {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
        return path
    }()

    static func readme() throws -> ReadmeDocument {
        let bytes = try #require(TemporaryDirectory.readBytes(repository + "/README.md"), "README.md is missing")
        return try ReadmeDocument(markdown: String(decoding: bytes, as: UTF8.self))
    }

    @Test func everyBlockDoesWhatTheReadmeSays() throws {
        let checked = try Self.runAndCheck(try Self.readme())
        #expect(checked > 20, "only \(checked) README lines ran")
    }

    /// Every block the README says runs alone (claim `alone`), each pasted alone into a fresh
    /// shell and home (issue 30): no `export` of an earlier block (CLOUDSYNC_ACCOUNT=alice,
    /// CLOUDSYNC_HOME) helps it. "Sync two machines" is one (issue 26): its commands act as the
    /// token's account.
    @Test(arguments: try! ReadmeTests.readme().blocks.filter(\.runsAlone).map(\.number))
    func aBlockMarkedAloneRunsInAFreshShell(_ number: Int) throws {
        var document = try Self.readme()
        document.blocks = document.blocks.filter { $0.number == number }
        let heading = document.blocks.first?.heading ?? "?"
        let checked = try Self.runAndCheck(document)
        #expect(checked == document.blocks.first?.lines.count, "'\(heading)' alone: only \(checked) lines ran")
    }

    @Test func theReadmeMarksItsStandaloneBlocks() throws {
        let alone = try Self.readme().blocks.filter(\.runsAlone).map(\.heading)
        for heading in ["Five minutes with two devices", "Sync two machines"] {
            #expect(alone.contains(heading), "'\(heading)' should run alone: \(alone)")
        }
    }

    /// Runs `document`'s blocks in order in a fresh home and checks each line's claims; the
    /// number of lines checked.
    static func runAndCheck(_ document: ReadmeDocument) throws -> Int {
        let root = TemporaryDirectory("readme")
        for folder in ["home", "tmp", "work", "results"] { root.makeDirectory(folder) }
        let home = root.file("home")
        let script = root.write("readme.sh", ReadmeScript.make(document, results: root.file("results"),
                                                               repository: repository))
        let environment = [
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config",
            "XDG_DATA_HOME": home + "/.local/share",
            "XDG_STATE_HOME": home + "/.local/state",
            "XDG_CACHE_HOME": home + "/.cache",
            "TMPDIR": root.file("tmp"),
            "WORK": root.file("work"),
            "PATH": "\(BinaryRunner.productsDirectory):\(home)/.local/bin:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
        ]
        let run = ProcessSpawner.run("/usr/bin/timeout", ["-k", "5", "120", "/bin/bash", "--noprofile", "--norc", script],
                                     environment: environment)
        #expect(run.status == 0, "the script failed (\(run.status)): \(run.stderr)")

        var statuses: [String: Int32] = [:]
        let statusText = String(decoding: TemporaryDirectory.readBytes(root.file("results/status")) ?? [], as: UTF8.self)
        for entry in statusText.split(separator: "\n") {
            let parts = entry.split(separator: " ")
            if parts.count == 2, let code = Int32(parts[1]) { statuses[String(parts[0])] = code }
        }
        func output(_ stem: String, _ stream: String) -> String {
            String(decoding: TemporaryDirectory.readBytes(root.file("results/\(stem).\(stream)")) ?? [], as: UTF8.self)
        }
        var checked = 0
        for block in document.blocks {
            if let transcript = block.transcript {
                let stem = ReadmeScript.stem(block, 1)
                let out = output(stem, "out")
                #expect(statuses[stem] == 0, "\(block.heading): the REPL transcript exited \(String(describing: statuses[stem])): \(output(stem, "err"))")
                for line in transcript.outputs {
                    #expect(out.contains(line), "\(block.heading): the REPL printed no '\(line)':\n\(out)")
                }
                checked += 1
                continue
            }
            for line in block.lines {
                let stem = ReadmeScript.stem(block, line.number)
                let where_ = "README '\(block.heading)', line \(line.number): \(line.text)"
                let out = output(stem, "out"), err = output(stem, "err")
                let shown = "\nstdout: \(out.prefix(600))\nstderr: \(err.prefix(600))"
                guard let status = statuses[stem] else {
                    Issue.record("\(where_): never ran")
                    continue
                }
                checked += 1
                #expect(status < 128 && status != 70, "\(where_): crashed or failed internally (\(status))\(shown)")
                let hint = status == 127 ? "\n(a command the test cannot run as written needs a reviewed entry in ReadmeStandIns)" : ""
                #expect(line.expectation.exitCodes.contains(status),
                        "\(where_): exit \(status), the README says \(line.expectation.exitCodes)\(shown)\(hint)")
                for text in line.expectation.stdout {
                    #expect(out.contains(text), "\(where_): stdout lacks '\(text)'\(shown)")
                }
                for text in line.expectation.stderr {
                    #expect(err.contains(text), "\(where_): stderr lacks '\(text)'\(shown)")
                }
                for pattern in line.expectation.stdoutPatterns {
                    let regex = try Regex(pattern)
                    #expect(out.firstMatch(of: regex) != nil, "\(where_): stdout does not match /\(pattern)/\(shown)")
                }
                if line.expectation.ndjson {
                    let lines = out.split(separator: "\n")
                    #expect(!lines.isEmpty && lines.allSatisfy { (try? JSONValue.parse(String($0))) != nil },
                            "\(where_): stdout is not NDJSON\(shown)")
                }
            }
        }
        return checked
    }

    /// Every stand-in and input is still needed: the README calls it.
    @Test func theStandInsAreAllUsed() throws {
        let document = try Self.readme()
        let commands = document.blocks.flatMap { $0.lines.map(\.command) }
        for standIn in ReadmeStandIns.standIns {
            #expect(commands.contains { $0.contains(standIn.name) }, "stand-in \(standIn.name) is no longer used")
        }
        for input in ReadmeStandIns.inputs {
            #expect(commands.contains { $0.contains(input.key) }, "input for '\(input.key)' is no longer used")
        }
    }

    /// The claims convention: in order, by a piece of the command, several clauses per line.
    @Test func claimsAttachToTheirLines() throws {
        let markdown = """
        # Demo
        ```sh
        export X=1
        cloudsync fetch-changes      # one
        cloudsync fetch-changes \\
            --json                   # two
        # a comment line
        echo $?                      # 4
        ```
        <!-- readme-test
        alone
        `fetch-changes`: out "one"
        `fetch-changes`: exit 0|4, err "say \\"hi\\"", ndjson
        `echo`: out~ "^[0-9]+$"
        -->

        ```text
        alice@laptop> zone list
        ZONE
        ```
        """
        let document = try ReadmeDocument(markdown: markdown)
        #expect(document.blocks.count == 2)
        #expect(document.blocks[0].runsAlone && !document.blocks[1].runsAlone)
        let lines = document.blocks[0].lines
        #expect(lines.map(\.command) == ["export X=1", "cloudsync fetch-changes",
                                         "cloudsync fetch-changes \\\n    --json", "echo $?"])
        #expect(lines[0].expectation.exitCodes == [0] && lines[0].expectation.stdout.isEmpty)
        #expect(lines[1].expectation.stdout == ["one"])
        #expect(lines[2].expectation.exitCodes == [0, 4] && lines[2].expectation.stderr == [#"say "hi""#]
                && lines[2].expectation.ndjson)
        #expect(lines[3].expectation.stdoutPatterns == ["^[0-9]+$"])
        #expect(lines[1].matches("fetch-changes$") && !lines[2].matches("fetch-changes$"))
        let transcript = try #require(document.blocks[1].transcript)
        #expect(transcript.account == "alice" && transcript.device == "laptop")
        #expect(transcript.inputs == ["zone list"] && transcript.outputs == ["ZONE"])
        #expect(throws: ReadmeFormatError.self) {
            try ReadmeDocument(markdown: "```sh\nls\n```\n<!-- readme-test\n`cat`: exit 1\n-->\n")
        }
    }
}
