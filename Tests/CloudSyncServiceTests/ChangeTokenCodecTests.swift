import CloudSyncCore
import CloudSyncService
import TestSupport
import Testing

/// Change tokens: opaque to clients, checked on the way back in.
@Suite("Change token codec")
struct ChangeTokenCodecTests {
    @Test func tokenCodecRoundTripsAndRejectsGarbage() throws {
        let payload = TokenPayload(kind: .zone, epoch: 0xDEAD_BEEF_0102_0304, scopeID: 42, sequence: 1 << 40)
        let text = ChangeTokenCodec.encode(payload)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(try ChangeTokenCodec.decode(text, expecting: .zone) == payload)
        #expect(cloudError { _ = try ChangeTokenCodec.decode(text, expecting: .database) }?.code == .changeTokenExpired)
        #expect(cloudError { _ = try ChangeTokenCodec.decode("AAAA", expecting: .zone) }?.code == .invalidArguments)
        #expect(cloudError { _ = try ChangeTokenCodec.decode(String(text.dropLast(2)), expecting: .zone) }?.code == .invalidArguments)
    }
}
