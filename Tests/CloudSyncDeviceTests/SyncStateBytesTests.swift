import CloudSyncCore
@testable import CloudSyncDevice
import TestSupport
import Testing

/// `withSyncStateBytes` (how `otp code` reads the label index) finds its row by scanning
/// `sync_state`, not by searching its key: the right value among other containers and keys,
/// rows larger than a page on either side of it, and none for a key that is not there.
@Suite("DeviceStore: sync-state values read in place")
struct SyncStateBytesTests {
    let dir = TemporaryDirectory("sync-state-bytes")

    /// `value` as a String (nil when unset) and the latest transaction the read reported.
    func read(_ store: DeviceStore, _ container: String, _ key: String) throws -> (String?, Int64) {
        try store.withSyncStateBytes(container: container, key) { bytes, latest in
            (bytes.map { String(decoding: $0, as: UTF8.self) }, latest)
        }
    }

    @Test func eachValueIsFoundAmongLargeRowsOfOtherContainersAndKeys() throws {
        let path = dir.file("device.sqlite")
        let large = { (seed: String) in String(repeating: seed, count: 40_000) }  // overflows a 16 KiB page
        do {
            let store = try DeviceStore(path: path)
            for container in ["a.container", "b.container", "c.container"] {
                for key in ["encrypt:OTPToken", "last_sync_ms", "otp.label-index", "zzz"] {
                    let value = key == "otp.label-index" || key == "zzz" ? large("\(container)/\(key)|") : "\(container)/\(key)"
                    try store.setSyncState(container: container, key, value)
                }
            }
            try store.put(container: "b.container", zone: "Z", name: "r", type: "Note", fields: ["t": .string("x")],
                          device: "d", now: 1)
        }
        for briefly in [false, true] {
            let store = try DeviceStore(path: path, briefly: briefly)
            for container in ["a.container", "b.container", "c.container"] {
                for key in ["encrypt:OTPToken", "last_sync_ms", "otp.label-index", "zzz"] {
                    let (value, latest) = try read(store, container, key)
                    let expected = key == "otp.label-index" || key == "zzz" ? large("\(container)/\(key)|") : "\(container)/\(key)"
                    #expect(value == expected)
                    #expect((latest > 0) == (container == "b.container"))
                }
                let (missing, _) = try read(store, container, "otp.label-inde")
                #expect(missing == nil)
            }
            let (other, latest) = try read(store, "d.container", "otp.label-index")
            #expect(other == nil && latest == 0)
        }
    }
}
