import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

// otp-bench: `cloudsync otp code QUERY` with 1,000 tokens stored, whole process, against
// `oathtool --totp` for one key, both timed in the same run, interleaved (with `cloudsync
// --version`, the start-up floor of the same binary, to show what the command itself costs). Prints one JSON
// document on stdout (and to --json-out FILE); progress on stderr. Target: the cloudsync
// median at most 2.5 times oathtool's (issue 16; issue 6 had 3).

func fail(_ message: String) -> Never {
    FileHandleError.write("otp-bench: \(message)\n")
    exit(1)
}

enum FileHandleError {
    static func write(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

var options: [String: String] = ["tokens": "1000", "runs": "300", "warmup": "20", "oathtool": "/usr/bin/oathtool"]
var arguments = Array(CommandLine.arguments.dropFirst())
while let argument = arguments.first {
    arguments.removeFirst()
    if argument == "-h" || argument == "--help" {
        print("usage: otp-bench --cloudsync PATH [--oathtool PATH] [--tokens N] [--runs N] [--warmup N] [--json-out FILE]")
        exit(0)
    }
    guard argument.hasPrefix("--"), let value = arguments.first else { fail("unexpected argument \(argument); see --help") }
    arguments.removeFirst()
    options[String(argument.dropFirst(2))] = value
}
guard let cloudsync = options["cloudsync"] else { fail("give --cloudsync PATH (a release build)") }
let oathtool = options["oathtool"]!
guard access(cloudsync, X_OK) == 0 else { fail("\(cloudsync) is not executable") }
guard access(oathtool, X_OK) == 0 else { fail("\(oathtool) is missing: apt-get install oathtool (scripts/install-deps)") }
guard let tokenCount = Int(options["tokens"]!), tokenCount > 0, let runs = Int(options["runs"]!), runs > 0,
      let warmup = Int(options["warmup"]!), warmup >= 0 else { fail("--tokens, --runs and --warmup take numbers") }

// A throwaway home with `tokenCount` tokens, imported once.
var template = Array("/tmp/otp-bench.XXXXXX".utf8CString)
guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else { fail("mkdtemp failed") }
let home = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
defer { _ = Spawner.output(["/bin/rm", "-rf", home], environment: [:]) }
let environment = ["CLOUDSYNC_HOME": home, "CLOUDSYNC_ACCOUNT": "bench", "CLOUDSYNC_DEVICE": "bench",
                   "XDG_CONFIG_HOME": home + "/config", "XDG_STATE_HOME": home + "/state", "HOME": home,
                   "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]

func base32(_ bytes: [UInt8]) -> String {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    var out = "", buffer = 0, bits = 0
    for byte in bytes {
        buffer = buffer << 8 | Int(byte); bits += 8
        while bits >= 5 { out.append(alphabet[(buffer >> (bits - 5)) & 31]); bits -= 5 }
    }
    if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
    return out
}

var rng = SystemRandomNumberGenerator()
var secrets: [String] = []
var lines = ""
for index in 0..<tokenCount {
    let secret = base32((0..<20).map { _ in UInt8.random(in: 0...255, using: &rng) })
    secrets.append(secret)
    lines += "otpauth://totp/Service\(index):user\(index)@example.com?secret=\(secret)&issuer=Service\(index)\n"
}
let file = home + "/tokens.txt"
let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
_ = Array(lines.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
close(fd)
FileHandleError.write("importing \(tokenCount) tokens…\n")
guard Spawner.output([cloudsync, "otp", "import", file], environment: environment).status == 0 else { fail("otp import failed") }

// The measured commands: a case-insensitive issuer lookup in the middle of the store (every
// exact rule is tried first), and oathtool for that token's key.
/// The goal of issue 16: the cloudsync median at most this many times oathtool's.
let targetRatio = 2.5
let target = tokenCount / 2
let ours = [cloudsync, "otp", "code", "service\(target)", "--quiet"]
let theirs = [oathtool, "--totp", "--base32", secrets[target]]
// The floor: the same binary doing nothing but start, parse and exit.
let floor = [cloudsync, "--version"]
// Same second, same code (retried once if the step turned between the two runs).
var agree = false
for _ in 0..<3 where !agree {
    let a = Spawner.output(ours, environment: environment).stdout, b = Spawner.output(theirs, environment: environment).stdout
    agree = !a.isEmpty && a == b
}
guard agree else { fail("cloudsync and oathtool disagree on the code of token \(target)") }

FileHandleError.write("timing \(runs) runs of each, interleaved (after \(warmup) warm-up runs)…\n")
var oursMS: [Double] = [], theirsMS: [Double] = [], floorMS: [Double] = []
for run in 0..<(warmup + runs) {
    let a = Spawner.time(ours, environment: environment)
    let b = Spawner.time(theirs, environment: environment)
    let c = Spawner.time(floor, environment: environment)
    guard a.status == 0, b.status == 0, c.status == 0 else {
        fail("a timed run failed (cloudsync \(a.status), oathtool \(b.status), cloudsync --version \(c.status))")
    }
    if run >= warmup {
        oursMS.append(a.ms)
        theirsMS.append(b.ms)
        floorMS.append(c.ms)
    }
}
let o = Summary(oursMS), t = Summary(theirsMS), f = Summary(floorMS)
let ratio = o.median / t.median
func timing(_ s: Summary) -> JSONValue {
    .object([("median_ms", .double(s.median)), ("p10_ms", .double(s.p10)), ("p90_ms", .double(s.p90)), ("min_ms", .double(s.minimum))])
}
let document = JSONValue.object([
    ("benchmark", .string("otp-code")),
    ("tokens", .int(Int64(tokenCount))), ("runs", .int(Int64(runs))),
    ("command", .string("cloudsync otp code service\(target) --quiet")),
    ("baseline", .string("oathtool --totp --base32 KEY")),
    ("cloudsync", timing(o)), ("oathtool", timing(t)),
    ("cloudsync_version_floor", timing(f)), ("otp_code_above_floor_ms", .double(o.median - f.median)),
    ("ratio", .double(ratio)), ("target_ratio", .double(targetRatio)), ("met", .bool(ratio <= targetRatio)),
])
print(document.prettyPrinted())
if let out = options["json-out"] {
    let fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    _ = Array((document.prettyPrinted() + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}
/// `x` with two decimals.
func fixed(_ x: Double) -> String {
    let hundredths = Int((x * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
FileHandleError.write("cloudsync otp code: median \(fixed(o.median)) ms; oathtool: median \(fixed(t.median)) ms; ratio \(fixed(ratio)) (target ≤ \(targetRatio))\n")
FileHandleError.write("cloudsync --version (start-up floor): median \(fixed(f.median)) ms; otp code above it: \(fixed(o.median - f.median)) ms\n")
