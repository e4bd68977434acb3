import CloudSyncService
import CloudSyncCore
import Testing

/// Issue 17 item 8: `CLOUDSYNC_FAULTS` parsing is total: every text is a plan or an error.
@Suite("fault plan parsing")
struct FaultPlanParsingTests {
    @Test func malformedItemsAreErrorsNotTraps() {
        for text in ["@", ":", "@:2", "::", "@@", "a@b@c", "networkUnavailable@", "@modifyRecords", "networkUnavailable:",
                     "networkUnavailable:0", "networkUnavailable:-1", "networkUnavailable:x", "zoneBusy:1:2", "bogus", ",@,"] {
            #expect(throws: CloudError.self, "\(text)") { try FaultPlan(parsing: text) }
        }
    }

    @Test func wellFormedPlans() throws {
        #expect(try FaultPlan(parsing: "").faults.isEmpty)
        #expect(try FaultPlan(parsing: ",,").faults.isEmpty)
        let plan = try FaultPlan(parsing: "networkUnavailable:3,zoneBusy@modifyRecords")
        #expect(plan.faults.map(\.code) == [.networkUnavailable, .zoneBusy])
        #expect(plan.faults.map(\.operation) == [nil, "modifyRecords"])
        #expect(plan.faults.map(\.remaining) == [3, 1])
    }
}
