import CloudSyncCore
import TestSupport
import Testing

/// A `cloudsync serve` with the fault hooks set wraps its cloud in a `FaultInjectingCloud`; the
/// schema and sharing endpoints still answer (the wrapper forwards those capabilities) instead of
/// "this cloud does not offer …".
@Suite("serve: schema and sharing with the fault hooks set (end to end)")
struct ServeCapabilitiesUnderFaultsTests {
    @Test func schemaAndSharingAnswerThroughTheFaultWrapper() throws {
        let fixture = try ServeFixture(admin: true, environment: ["CLOUDSYNC_FAULTS": "networkUnavailable@deleteSubscriptions:1"])
        let (home, a) = fixture.client("a")
        let file = home.write("notes.ckdb", ServeSchemaTests.notes)
        let imported = a.run(["schema", "import", file], device: "a")
        #expect(imported.status == 0, "\(imported.stderr)")
        let exported = a.run(["schema", "export"], device: "a")
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(ServeSchemaTests.declaresTitle(exported.stdout), "\(exported.stdout)")
        #expect(a.run(["zone", "create", "Trips"], device: "a").status == 0)
        let shared = a.run(["--json", "share", "create", "--zone", "Trips"], device: "a")
        #expect(shared.status == 0, "\(shared.stderr)")
        #expect(try shared.json()["url"]?.stringValue != nil, "\(shared.stdout)")
        #expect(fixture.stop() == 0)
        #expect(fixture.log.contains("schema/import alice 200"), "\(fixture.log)")
    }
}
