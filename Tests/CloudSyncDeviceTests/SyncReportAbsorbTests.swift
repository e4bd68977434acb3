import CloudSyncCore
@testable import CloudSyncDevice
import Testing

/// `SyncReport.absorb`, the one place two reports of a run merge (the account's own store and
/// each owner's shared zones): every field is carried, none is dropped.
@Suite("SyncReport.absorb")
struct SyncReportAbsorbTests {
    /// A report with every field set away from its default.
    static func full(_ tag: String, saved: Int) -> SyncReport {
        var report = SyncReport()
        report.savedRecords = saved
        report.deletedRecords = 2
        report.pulledChanges = 3
        report.pulledDeletions = 4
        report.ownPushedRecords = 5
        report.conflicts = [SyncConflict(zoneName: "Z", recordName: "r-\(tag)", policy: .newest, resolution: "kept",
                                         contestedKeys: ["k"])]
        report.recreatedZones = ["re-\(tag)"]
        report.droppedZones = ["drop-\(tag)"]
        report.failures = [RecordID(recordName: "f-\(tag)", zoneID: ZoneID(zoneName: "Z", ownerRecordName: "_owner")): CloudError(.zoneBusy, "busy")]
        report.pendingAfter = 6
        report.epochChanged = true
        return report
    }

    @Test func everyFieldOfTheAbsorbedReportIsCarried() {
        var total = SyncReport()
        total.absorb(Self.full("a", saved: 1))
        #expect(total.savedRecords == 1)
        #expect(total.deletedRecords == 2)
        #expect(total.pulledChanges == 3)
        #expect(total.pulledDeletions == 4)
        #expect(total.ownPushedRecords == 5)
        #expect(total.conflicts.map(\.recordName) == ["r-a"])
        #expect(total.recreatedZones == ["re-a"])
        #expect(total.droppedZones == ["drop-a"])
        #expect(total.failures.count == 1)
        #expect(total.pendingAfter == 6)
        #expect(total.epochChanged)
    }

    @Test func twoReportsAddUp() {
        var total = Self.full("a", saved: 1)
        total.absorb(Self.full("b", saved: 10))
        #expect(total.savedRecords == 11 && total.deletedRecords == 4 && total.pulledChanges == 6)
        #expect(total.pulledDeletions == 8 && total.ownPushedRecords == 10 && total.pendingAfter == 12)
        #expect(total.conflicts.map(\.recordName) == ["r-a", "r-b"])
        #expect(total.recreatedZones == ["re-a", "re-b"])
        #expect(total.droppedZones == ["drop-a", "drop-b"])
        #expect(total.failures.count == 2)
        #expect(total.epochChanged)
        var quiet = SyncReport()
        quiet.absorb(SyncReport())
        #expect(!quiet.epochChanged, "an epoch change is never made up")
    }

    /// A field added to `SyncReport` later and forgotten in `absorb` fails here: every stored
    /// field of a report that absorbed a full one differs from an empty report's.
    @Test func noFieldIsLeftAtItsDefault() {
        var total = SyncReport()
        total.absorb(Self.full("a", saved: 1))
        let empty = Mirror(reflecting: SyncReport()).children.map { "\($0.value)" }
        for (child, before) in zip(Mirror(reflecting: total).children, empty) {
            #expect("\(child.value)" != before, "absorb dropped \(child.label ?? "a field")")
        }
    }
}
