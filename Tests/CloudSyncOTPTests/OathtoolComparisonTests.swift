import CloudSyncCrypto
import CloudSyncOTP
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Our codes against OATH Toolkit's `oathtool` (Debian package `oathtool`, installed by
/// scripts/install-deps) for a few hundred random secrets, hashes, lengths, periods and times.
@Suite("Codes equal oathtool's")
struct OathtoolComparisonTests {
    static let oathtool: String? = ["/usr/bin/oathtool", "/usr/local/bin/oathtool"].first { (path: String) in access(path, X_OK) == 0 }

    /// Base32 with `=` padding, which oathtool wants for lengths that do not fill a group.
    static func padded(_ bytes: [UInt8]) -> String {
        var text = Base32.encode(bytes)
        while text.count % 8 != 0 { text += "=" }
        return text
    }

    static func run(_ arguments: [String]) -> String {
        let result = ProcessSpawner.run(oathtool ?? "oathtool", arguments, environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC"])
        return result.status == 0 ? String(result.stdout.filter { !$0.isWhitespace }) : "oathtool failed: \(result.stderr)"
    }

    @Test func totpAcrossHashesDigitsPeriodsAndTimes() throws {
        try #require(Self.oathtool != nil, "oathtool is missing: run scripts/install-deps (apt-get install oathtool)")
        var rng = SystemRandomNumberGenerator()
        // Fixed interesting times: the epoch's first steps, 2^31 - 1 and 2^31 (2038), 2100, 2^33.
        let fixed: [Int64] = [0, 59, 1_111_111_109, 2_147_483_647, 2_147_483_648, 4_102_444_800, 8_589_934_592]
        var compared = 0
        for index in 0..<240 {
            let hash = HashFunction.allCases[index % 3]
            let secret = (0..<Int.random(in: 10...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let digits = 6 + index % 3
            let period = [30, 15, 45, 60, 90, 1, 300][index % 7]
            let time = index < fixed.count ? fixed[index] : Int64.random(in: 0...(Int64(1) << 34), using: &rng)
            let token = OTPToken(name: "t", secret: secret, algorithm: hash, digits: digits, period: period)
            let ours = token.code(factor: try #require(token.step(atUnixSeconds: time)))
            let theirs = Self.run(["--totp=\(hash.rawValue)", "--base32", "-d", String(digits), "-s", "\(period)s",
                                   "--now", "@\(time)", Self.padded(secret)])
            #expect(ours == theirs, "\(hash) \(digits) digits, \(period) s, at \(time), secret \(Hex.encode(secret))")
            compared += 1
        }
        #expect(compared == 240)
    }

    @Test func hotpAcrossDigitsAndCounters() throws {
        try #require(Self.oathtool != nil, "oathtool is missing: run scripts/install-deps (apt-get install oathtool)")
        var rng = SystemRandomNumberGenerator()
        for index in 0..<80 {
            let secret = (0..<Int.random(in: 10...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let digits = 6 + index % 3
            let counter = index < 5 ? UInt64(index) : UInt64.random(in: 0...(UInt64(1) << 40), using: &rng)
            let ours = OTPGenerator.hotp(secret: secret, counter: counter, digits: digits)
            let theirs = Self.run(["--hotp", "--base32", "-d", String(digits), "-c", String(counter), Self.padded(secret)])
            #expect(ours == theirs, "\(digits) digits, counter \(counter), secret \(Hex.encode(secret))")
        }
    }
}
