import CloudSyncCLI
import Testing

/// A family declares a live completion kind in its own module, with the closure that lists its
/// values: the engine and the script generators serve it with nothing registered in the CLI.
@Suite struct OpenCompletionKindTests {
    /// A kind no CLI code knows about, as a new family would declare it.
    static let colour = CompletionKind.live(LiveCompletion("colour") { query in
        ["red", "green", "grey"].filter { $0.hasPrefix(query.prefix) }
    })

    static let table = CommandSpec(name: "cloudsync", abstract: "Root", subcommands: [
        CommandSpec(name: "paint", abstract: "Paint",
                    options: [OptionSpec("colour", value: "colour", help: "A colour.", completion: colour)],
                    arguments: [ArgumentSpec("what", help: "What.", completion: colour)], run: { _, _ in }),
    ])

    @Test func theKindsOwnProviderAnswersWithNothingRegistered() {
        let engine = CompletionEngine(root: Self.table, liveValues: LiveValueSource(),
                                      environment: ["HOME": "/nonexistent", "PATH": ""])
        #expect(engine.complete(["paint", "gr"]).values == ["green", "grey"])
        #expect(engine.complete(["paint", "--colour", "r"]).values == ["red"])
    }

    @Test func aSourceCanReplaceAKindsProvider() {
        let replaced = LiveValueSource().adding(Self.colour) { _ in ["gold"] }
        let engine = CompletionEngine(root: Self.table, liveValues: replaced, environment: ["HOME": "/nonexistent", "PATH": ""])
        #expect(engine.complete(["paint", "g"]).values == ["gold"])
    }

    @Test func kindsAreTheSameByName() {
        #expect(Self.colour == .live(LiveCompletion("colour")))
        #expect(Self.colour != CompletionKind.zoneName)
        #expect(CompletionKind.zoneName.live?.name == "zoneName")
    }
}
