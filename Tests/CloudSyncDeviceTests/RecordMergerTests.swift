import CloudSyncCore
import CloudSyncDevice
import Testing

@Suite("Merge policies")
struct RecordMergerTests {
    // One conflict: title changed on both sides (cloud newer), body only locally, tags only in
    // the cloud, color removed locally, size removed in the cloud.
    let ancestor: [String: FieldValue] = ["title": .string("A"), "body": .string("b0"), "tags": .string("t0"),
                                          "color": .string("red"), "size": .int64(1)]
    let local: [String: FieldValue] = ["title": .string("L"), "body": .string("b1"), "tags": .string("t0"),
                                       "size": .int64(1)]
    let server: [String: FieldValue] = ["title": .string("S"), "body": .string("b0"), "tags": .string("t1"),
                                        "color": .string("red")]

    func merge(_ policy: MergePolicy, localTime: Int64 = 100, serverTime: Int64 = 200) -> MergeOutcome {
        RecordMerger.merge(local: MergeSide(fields: local, modified: localTime), server: MergeSide(fields: server, modified: serverTime),
                           ancestor: ancestor, policy: policy)
    }

    @Test func fieldsMergesEachFieldAndNewerWinsContested() {
        let outcome = merge(.fields)
        #expect(outcome.fields?["title"] == .string("S"), "both changed: the cloud is newer")
        #expect(outcome.fields?["body"] == .string("b1"), "only local changed")
        #expect(outcome.fields?["tags"] == .string("t1"), "only the cloud changed")
        #expect(outcome.fields?["color"] == nil, "removed locally")
        #expect(outcome.fields?["size"] == nil, "removed in the cloud")
        #expect(outcome.contestedKeys == ["title"])
        let localNewer = merge(.fields, localTime: 300)
        #expect(localNewer.fields?["title"] == .string("L"))
        #expect(localNewer.fields?["tags"] == .string("t1"))
        #expect(localNewer.resolution.contains("title"))
    }

    @Test func serverClientAndNewestTakeWholeRecords() {
        #expect(merge(.server).fields == server)
        #expect(merge(.client).fields == local)
        #expect(merge(.newest).fields == server)
        #expect(merge(.newest, localTime: 300).fields == local)
        #expect(merge(.server).contestedKeys == ["title"])
    }

    @Test func deletionsNeverEatEdits() {
        let editVsDelete = RecordMerger.merge(local: MergeSide(fields: local, modified: 1), server: MergeSide(fields: nil, modified: 9),
                                              ancestor: ancestor, policy: .fields)
        #expect(editVsDelete.fields == local)
        let deleteVsEdit = RecordMerger.merge(local: MergeSide(fields: nil, modified: 9), server: MergeSide(fields: server, modified: 1),
                                              ancestor: ancestor, policy: .fields)
        #expect(deleteVsEdit.fields == server, "the cloud changed after our base: keep its changes")
        let deleteVsUnchanged = RecordMerger.merge(local: MergeSide(fields: nil, modified: 9),
                                                   server: MergeSide(fields: ancestor, modified: 1), ancestor: ancestor, policy: .fields)
        #expect(deleteVsUnchanged.fields == nil)
        let serverWins = RecordMerger.merge(local: MergeSide(fields: local, modified: 1), server: MergeSide(fields: nil, modified: 9),
                                            ancestor: ancestor, policy: .server)
        #expect(serverWins.fields == nil)
    }

    @Test func noAncestorMeansIndependentCreations() {
        let outcome = RecordMerger.merge(local: MergeSide(fields: ["a": .int64(1), "x": .int64(1)], modified: 1),
                                         server: MergeSide(fields: ["b": .int64(2), "x": .int64(2)], modified: 2),
                                         ancestor: nil, policy: .fields)
        #expect(outcome.fields == ["a": .int64(1), "b": .int64(2), "x": .int64(2)])
    }
}
