import CloudSyncCLI
import Synchronization
import Testing

/// How many times `madeDiscussion()` ran.
private let discussionsMade = Atomic<Int>(0)

private func madeDiscussion() -> String {
    discussionsMade.add(1, ordering: .relaxed)
    return "Put together from a table."
}

/// A registered group's discussion (the root's is put together from the settings table) is
/// made when help reads it, not each time the group is built, i.e. at every start.
@Suite("A registered group's discussion")
struct DeferredDiscussionTests {
    @Test func isMadeOnlyWhenRead() {
        let group = CommandSpec(name: "group", abstract: "A group.", discussion: madeDiscussion(), registered: [])
        #expect(discussionsMade.load(ordering: .relaxed) == 0)
        #expect(group.discussion == "Put together from a table.")
        #expect(discussionsMade.load(ordering: .relaxed) == 1)
        let plain = CommandSpec(name: "plain", abstract: "A command.", discussion: "Given as text.")
        #expect(plain.discussion == "Given as text.")
    }
}
