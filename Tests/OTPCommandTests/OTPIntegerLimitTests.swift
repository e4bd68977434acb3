import CloudSyncCore
import TestSupport
import Testing

/// Issue 17 item 8: counters, digits, periods and times at the ends of their ranges give a
/// one-line error, never a trap, and never a saved counter the output did not show.
@Suite("otp integer limits (end to end)")
struct OTPIntegerLimitTests {
    let home = TemporaryDirectory("otp-limits")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }

    private func counter(_ name: String) throws -> Int64? {
        try cli.exec(["otp", "show", name, "--json"]).json()["counter"]?.int64Value
    }

    @Test func hotpAtTheTopOfTheCounterRange() throws {
        let add = cli.exec(["otp", "add", "h", "--type", "hotp", "--counter", "9223372036854775806"], stdin: rfcSecret)
        #expect(add.status == 0, "\(add.stderr)")
        let tooMany = cli.exec(["--json", "otp", "code", "h", "--next", "2"])
        #expect(tooMany.status == 65, "\(tooMany.stderr)")
        #expect(try tooMany.errorJSON()["error"]?["reason"]?.stringValue?.contains("only 1 more code") == true)
        #expect(try counter("h") == 9_223_372_036_854_775_806, "a refused code leaves the counter alone")
        let last = cli.exec(["--json", "otp", "code", "h"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(try last.json()["counter"] == .int(9_223_372_036_854_775_806))
        #expect(try counter("h") == Int64.max)
        let usedUp = cli.exec(["otp", "code", "h"])
        #expect(usedUp.status == 65)
        #expect(usedUp.stderr == "cloudsync: error: the HOTP counter of 'h' is used up (at 9223372036854775807)\n")
        #expect(cli.exec(["otp", "verify", "000000", "h"]).status == 1)
        #expect(try counter("h") == Int64.max)
        #expect(cli.exec(["otp", "add", "h2", "--type", "hotp", "--counter", "9223372036854775808"], stdin: rfcSecret).status == 64)
    }

    @Test func storedRecordsWithDigitsOrPeriodOutOfRangeAreRefused() {
        let secret = Base64.encode(Array("12345678901234567890".utf8))
        for (name, field) in [("digits", "digits:INT64=20"), ("zero", "period:INT64=0"), ("negative", "period:INT64=-5"),
                              ("huge", "period:INT64=9223372036854775807")] {
            let put = cli.exec(["store", "put", "OTPToken", name, "--field", "name=\(name)", "--field", "type=totp",
                                "--field", field, "--field", "secret:BYTES=\(secret)"])
            #expect(put.status == 0, "\(put.stderr)")
            let code = cli.exec(["otp", "code", name, "--at", "@59"])
            #expect(code.status == 65, "\(name): \(code.stderr)")
            #expect(code.stderr.hasPrefix("cloudsync: error: token '\(name)': "), "\(code.stderr)")
        }
        let all = cli.exec(["otp", "code", "--at", "@59"])
        #expect(all.status == 0)
        #expect(all.stderr.split(separator: "\n").count == 4, "one warning per unusable record: \(all.stderr)")
    }

    @Test func timesNearTheEndOfTheRange() {
        #expect(cli.exec(["otp", "add", "t", "--period", "86400"], stdin: rfcSecret).status == 0)
        #expect(cli.exec(["otp", "code", "t", "--at", "@9223372036854774", "--next", "100"]).status == 64)
        #expect(cli.exec(["otp", "code", "--at", "@9223372036854774", "--next", "100"]).status == 64)
        #expect(cli.exec(["otp", "code", "t", "--at", "9999-12-31T23:59:59-23:59"]).status == 64)
        let last = cli.exec(["--json", "otp", "code", "t", "--at", "@253402300799", "--next", "100"])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(cli.exec(["otp", "verify", "000000", "t", "--at", "@253402300799", "--window", "100"]).status == 1)
    }
}
