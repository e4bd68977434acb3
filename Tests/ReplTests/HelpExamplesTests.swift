import CloudSyncCore
import TestSupport
import Testing

/// Every command of the real command table (walked through the built binary's `help --json`)
/// has at least one example, and each example runs that command; no help page uses internal
/// jargon.
@Suite("Help: an example on every page (the real command table)")
struct HelpExamplesTests {
    struct Page {
        var path: [String]
        var json: JSONValue
    }

    /// Every visible command's `help PATH --json`, depth first from the root.
    static func pages() throws -> [Page] {
        let home = TemporaryDirectory("help-examples")
        let cli = BinaryRunner(home: home.path)
        var pages: [Page] = []
        var pending: [[String]] = [[]]
        while let path = pending.popLast() {
            let result = cli.run(["help"] + path + ["--json"])
            #expect(result.status == 0, "help \(path): \(result.stderr)")
            let json = try result.json()
            pages.append(Page(path: path, json: json))
            for sub in json["subcommands"]?.arrayValue ?? [] {
                if let name = sub["name"]?.stringValue { pending.append(path + [name]) }
            }
        }
        return pages
    }

    @Test func everyCommandHasAnExampleThatRunsIt() throws {
        let pages = try Self.pages()
        #expect(pages.count > 80, "the walk reached \(pages.count) commands")
        var missing: [String] = []
        for page in pages {
            let examples = page.json["examples"]?.arrayValue ?? []
            let name = (["cloudsync"] + page.path).joined(separator: " ")
            if examples.isEmpty { missing.append(name) }
            for example in examples {
                let command = example["command"]?.stringValue ?? ""
                let words = command.split(separator: " ").map(String.init)
                // After the program name (and any global options), the command's own words.
                let after = words.drop { $0 != "cloudsync" }.dropFirst()
                let joined = " " + after.joined(separator: " ") + " "
                // A bare `cloudsync` opens the REPL; a family's page may show its commands at work
                // with others (a shared zone read with 'record query').
                let bareRepl = after.isEmpty && page.path == ["repl"]
                let isGroup = !(page.json["subcommands"]?.arrayValue ?? []).isEmpty
                #expect(joined.contains(" " + page.path.joined(separator: " ") + " ") || page.path.isEmpty || bareRepl
                        || isGroup,
                        "\(name): the example '\(command)' does not run it")
                let explanation = example["explanation"]?.stringValue ?? ""
                #expect(!explanation.isEmpty, "\(name): '\(command)' is not explained")
            }
        }
        #expect(missing.isEmpty, "commands without an example: \(missing.joined(separator: ", "))")
    }

    @Test func noHelpPageNamesTheDesignSeeds() throws {
        for page in try Self.pages() {
            let text = page.json.serialized().lowercased()
            for jargon in ["seed 000", "seed 001", "seed 002", "seed's", "the seeds"] {
                #expect(!text.contains(jargon), "help \(page.path.joined(separator: " ")) says '\(jargon)'")
            }
        }
    }
}
