import CloudSyncCLI
import Testing

@Suite struct SuggestionTests {
    @Test func distanceCountsEditsAndSwaps() {
        #expect(Suggestions.distance("zone", "zone") == 0)
        #expect(Suggestions.distance("zon", "zone") == 1)
        #expect(Suggestions.distance("zoen", "zone") == 1)   // one swap
        #expect(Suggestions.distance("kitten", "sitting") == 3)
        #expect(Suggestions.distance("", "abc") == 3)
        #expect(Suggestions.distance("ZONE", "zone") == 0)
    }

    @Test func closestPicksNearNamesOnly() {
        let commands = ["zone", "record", "fetch-changes", "subscribe", "schema", "help"]
        #expect(Suggestions.closest(to: "zoen", among: commands) == ["zone"])
        #expect(Suggestions.closest(to: "recrod", among: commands) == ["record"])
        #expect(Suggestions.closest(to: "fetch-change", among: commands) == ["fetch-changes"])
        #expect(Suggestions.closest(to: "subscr", among: commands) == ["subscribe"])
        #expect(Suggestions.closest(to: "banana", among: commands).isEmpty)
        #expect(Suggestions.closest(to: "x", among: commands).isEmpty)
    }

    @Test func didYouMeanWording() {
        #expect(Suggestions.didYouMean("zon", among: ["zone", "record"]) == "Did you mean 'zone'?")
        #expect(Suggestions.didYouMean("cat", among: ["bat", "car", "dog"]) == "Did you mean 'bat' or 'car'?")
        #expect(Suggestions.didYouMean("qqqqqq", among: ["zone"]) == nil)
    }

    @Test func unknownCommandMessage() {
        let home = TempDir()
        defer { home.remove() }
        let result = invoke(Toy.registry(), ["zoen", "list"], environment: baseEnvironment(home: home))
        #expect(result.status == 64)
        #expect(result.stderr == """
            cloudsync: error: 'zoen' is not a cloudsync command. See 'cloudsync help -a'.
            Did you mean 'zone'?

            """)
        let far = invoke(Toy.registry(), ["qqqqqqqq"], environment: baseEnvironment(home: home))
        #expect(far.status == 64)
        #expect(far.stderr == "cloudsync: error: 'qqqqqqqq' is not a cloudsync command. See 'cloudsync help -a'.\n")
    }
}
