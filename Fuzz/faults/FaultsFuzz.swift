import CloudSyncService
import CloudSyncSQLiteCloud

// libFuzzer target: the `CLOUDSYNC_FAULTS` spec (`code[@operation][:count],…`). Checks: no crash;
// every planned fault has a positive count.

@_cdecl("LLVMFuzzerTestOneInput")
public func faultsFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let plan = try? FaultPlan(parsing: text) else { return 0 }
    for fault in plan.faults where fault.remaining < 1 {
        fatalError("a planned fault has count \(fault.remaining)")
    }
    return 0
}
