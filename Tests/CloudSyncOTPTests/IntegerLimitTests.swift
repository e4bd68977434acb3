import CloudSyncCore
import CloudSyncCrypto
@testable import CloudSyncOTP
import Testing

/// Issue 17 items 8 and 9: OTP arithmetic is total, and an Aegis vault cannot ask for more key
/// derivation work than Aegis itself does.
@Suite("OTP integer limits")
struct IntegerLimitTests {
    let secret = Array("12345678901234567890".utf8)

    @Test func generatorIsTotalInDigits() {
        for digits in [Int.min, -1, 0, 9, 10, 11, 20, Int.max] {
            #expect(OTPGenerator.hotp(secret: secret, counter: 0, digits: digits).count == max(min(max(digits, 0), 10), 1))
        }
        #expect(OTPGenerator.hotp(secret: secret, counter: 0, digits: 6) == "755224")
        #expect(OTPGenerator.timeStep(unixSeconds: 59, period: 0) == nil)
        #expect(OTPGenerator.timeStep(unixSeconds: 59, period: -30) == nil)
    }

    @Test func usableCountersStopBelowTheStorableMaximum() throws {
        var token = OTPToken(name: "h", secret: secret, kind: .hotp, counter: OTPToken.maximumCounter - 1)
        #expect(try token.usableCounters(1) == (OTPToken.maximumCounter - 1)...(OTPToken.maximumCounter - 1))
        #expect(throws: OTPError.self) { try token.usableCounters(2) }
        token.counter = OTPToken.maximumCounter
        #expect(throws: OTPError.invalidParameter("the HOTP counter of 'h' is used up (at 9223372036854775807)")) {
            try token.usableCounters(1)
        }
        token.counter = 5
        #expect(try token.usableCounters(101) == 5...105)
        #expect(throws: OTPError.self) { try token.usableCounters(0) }
    }

    @Test func recordsOutOfRangeAreRefused() throws {
        var fields = OTPRecordFields.fields(OTPToken(name: "t", secret: secret))
        #expect(try OTPRecordFields.token(fields).digits == 6)
        for (key, value) in [("digits", Int64(20)), ("digits", -1), ("period", 0), ("period", -30), ("period", Int64.max)] {
            fields = OTPRecordFields.fields(OTPToken(name: "t", secret: secret))
            fields[key] = .int64(value)
            #expect(throws: OTPError.self, "\(key)=\(value)") { try OTPRecordFields.token(fields) }
        }
    }

    /// A vault asking for scrypt beyond the bounds (128·r·N ≤ 256 MiB, N·r·p ≤ 2^22), or listing
    /// many slots, is refused before any key is derived (so in well under a second, with no
    /// memory taken).
    @Test func aegisSlotsBeyondAegisOwnParametersAreRefused() throws {
        let vault = try Fixtures.aegisEncrypted(password: "pw", n: 1 << 14, extraSlots: false)
        for (from, to) in [("\"n\": 16384", "\"n\": 1048576"), ("\"r\": 8", "\"r\": 4096"), ("\"p\": 1", "\"p\": 64"),
                           ("\"n\": 16384", "\"n\": 16385"), ("\"n\": 16384", "\"n\": 4194304")] {
            let greedy = vault.replacingFirst(from, with: to)
            do {
                _ = try ImportReader.read(Array(greedy.utf8), password: "pw")
                Issue.record("\(to) was accepted")
            } catch {
                #expect("\(error)".contains("at most 256 MiB"), "\(to): \(error)")
            }
        }
        // Several expensive slots: refused as a whole, before the first derivation.
        var json = try JSONValue.parse(vault)
        guard case .object(var pairs) = json, let headerIndex = pairs.firstIndex(where: { $0.0 == "header" }),
              case .object(var header) = pairs[headerIndex].1, let slotsIndex = header.firstIndex(where: { $0.0 == "slots" }),
              let slot = header[slotsIndex].1.arrayValue?.first else { Issue.record("fixture"); return }
        header[slotsIndex].1 = .array(Array(repeating: slot, count: 3))
        pairs[headerIndex].1 = .object(header)
        json = .object(pairs)
        #expect(throws: OTPError.invalidFile("the Aegis vault has 3 password slots; Aegis writes at most 2")) {
            try ImportReader.read(Array(json.serialized().utf8), password: "pw")
        }
        header[slotsIndex].1 = .array(Array(repeating: slot, count: 2))
        pairs[headerIndex].1 = .object(header)
        #expect(try ImportReader.read(Array(JSONValue.object(pairs).serialized().utf8), password: "pw").tokens.isEmpty == false)
    }
}
