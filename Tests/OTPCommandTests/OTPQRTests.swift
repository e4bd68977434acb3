import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `--qr` draws scannable codes: the half blocks read back into modules, rendered as an image
/// and decoded by zbarimg (zbar-tools, installed by scripts/install-deps).
@Suite("QR codes in the terminal (end to end)")
struct OTPQRTests {
    let home = TemporaryDirectory("otp-qr")
    var cli: BinaryRunner { BinaryRunner(home: home.path, extra: ["CLOUDSYNC_DEVICE": "laptop"]) }
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { (path: String) in access(path, X_OK) == 0 }

    /// The light/dark modules of a drawing: each character is two rows (upper, lower); light
    /// is ink (`█` both, `▀` upper, `▄` lower, space neither).
    static func modules(_ drawing: String) -> [[Bool]] {
        var rows: [[Bool]] = []
        for line in drawing.split(separator: "\n") where line.contains("█") {
            var upper: [Bool] = [], lower: [Bool] = []
            for c in line {
                upper.append(c == "█" || c == "▀")
                lower.append(c == "█" || c == "▄")
            }
            rows.append(upper)
            rows.append(lower)
        }
        return rows
    }

    /// A binary PGM (black on white, 4 pixels per module, a wide white border).
    static func pgm(_ light: [[Bool]], scale: Int = 4, border: Int = 8) -> [UInt8] {
        let width = (light.map(\.count).max() ?? 0) * scale + 2 * border
        let height = light.count * scale + 2 * border
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (y, row) in light.enumerated() {
            for (x, isLight) in row.enumerated() where !isLight {
                for dy in 0..<scale {
                    for dx in 0..<scale { pixels[(border + y * scale + dy) * width + border + x * scale + dx] = 0 }
                }
            }
        }
        return Array("P5\n\(width) \(height)\n255\n".utf8) + pixels
    }

    func decode(_ drawing: String, name: String) throws -> [String] {
        let zbarimg = try #require(Self.zbarimg, "zbarimg is missing: run scripts/install-deps (apt-get install zbar-tools)")
        var light = Self.modules(drawing)
        // The last text line's lower half lies outside the symbol's margin: keep it light.
        if let last = light.indices.last { light[last] = light[last].map { _ in true } }
        let path = home.file(name + ".pgm")
        let bytes = Self.pgm(light)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let result = ProcessSpawner.run(zbarimg, ["--quiet", "--raw", path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "zbarimg could not read \(name): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func exportedQRCodesScanToTheURIs() throws {
        let uris = [
            "otpauth://totp/GitHub:alice?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&algorithm=SHA1&digits=6&period=30",
            "otpauth://totp/ACME%20Co:bob@example.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZHXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ&issuer=ACME%20Co&algorithm=SHA512&digits=8&period=30",
        ]
        #expect(cli.exec(["otp", "import", "-"], stdin: uris.joined(separator: "\n")).status == 0)
        for (index, query) in ["github", "acme"].enumerated() {
            let result = cli.exec(["otp", "export", query, "--qr"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("\u{1B}"), "no color codes off a terminal")
            #expect(try decode(result.stdout, name: query) == [uris[index]])
        }
        // Google Authenticator's transfer format as QR codes, one per batch.
        let migration = cli.exec(["otp", "export", "--format", "migration", "--qr"])
        let scanned = try decode(migration.stdout, name: "migration")
        #expect(scanned.count == 1 && scanned[0].hasPrefix("otpauth-migration://offline?data="))
        #expect(cli.exec(["otp", "import", "-"], device: "phone", stdin: scanned[0]).status == 0)
        #expect(try cli.tokenNames("phone") == ["ACME Co:bob@example.com", "GitHub:alice"])
        // show --qr draws the same symbol as export --qr.
        #expect(Self.modules(cli.exec(["otp", "show", "github", "--qr"]).stdout)
                == Self.modules(cli.exec(["otp", "export", "github", "--qr"]).stdout))
    }
}
