import CloudSyncCore
import Glibc
import TestSupport
import Testing

/// Issue 15: `--field NAME[:TYPE]=@FILE` (and `@-`) through the built binary, and
/// `--asset-dir` writing the assets back byte for byte.
@Suite("field values from files (end to end)")
struct FieldFileTests {
    let home = TemporaryDirectory("field-files")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    /// Bytes that are not text, with every byte value.
    static func binary(_ count: Int) -> [UInt8] {
        var state: UInt32 = 2_463_534_242
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(truncatingIfNeeded: state)
        }
    }

    func writeBytes(_ name: String, _ bytes: [UInt8]) -> String {
        let path = home.file(name)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        bytes.withUnsafeBytes { _ = Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
        return path
    }

    /// The names in a folder.
    static func listing(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    @Test func hundredKilobyteStringFromAFile() throws {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        let text = String(repeating: "line of text ✓\n", count: 100_000 / 16)
        let path = home.write("body.txt", text)
        let saved = cli.run(["record", "save", "Note", "n1", "--zone", "Notes", "--field", "body=@" + path])
        #expect(saved.status == 0, "\(saved.stderr)")
        let got = try cli.run(["record", "get", "n1", "--zone", "Notes", "--json"]).json()
        let record = got["records"]?.arrayValue?.first ?? got
        #expect(record["fields"]?["body"]?["value"] == .string(text))
    }

    @Test func fiveMegabyteAssetRoundTrip() throws {
        #expect(cli.run(["zone", "create", "Photos"]).status == 0)
        let bytes = Self.binary(5 * 1_048_576)
        let path = writeBytes("photo.bin", bytes)
        let saved = cli.run(["record", "save", "Photo", "p1", "--zone", "Photos", "--field", "image:ASSETID=@" + path, "--json"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let checksum = try saved.json()["fields"]?["image"]?["value"]?["fileChecksum"]?.stringValue
        #expect(checksum?.count == 64)
        let out = home.file("assets")
        let got = cli.run(["record", "get", "p1", "--zone", "Photos", "--asset-dir", out])
        #expect(got.status == 0, "\(got.stderr)")
        #expect(got.stderr.contains("p1.image: " + out + "/" + (checksum ?? "?")))
        #expect(TemporaryDirectory.readBytes(out + "/" + (checksum ?? "?")) == bytes)
    }

    @Test func storePutReadsFilesAndStdin() throws {
        let bytes = Self.binary(300_000)
        let path = writeBytes("blob.bin", bytes)
        let body = String(repeating: "x", count: 120_000)
        let put = cli.run(["store", "put", "Note", "n1", "--field", "blob:BYTES=@" + path, "--field", "body=@-",
                           "--field", "handle=@@alice"], stdin: body)
        #expect(put.status == 0, "\(put.stderr)")
        let out = home.file("out")
        let got = cli.run(["store", "get", "n1", "--asset-dir", out, "--json"])
        #expect(got.status == 0, "\(got.stderr)")
        let record = try got.json()["records"]?.arrayValue?.first ?? got.json()
        #expect(record["fields"]?["body"]?["value"] == .string(body))
        #expect(record["fields"]?["handle"]?["value"] == .string("@alice"))
        let files = Self.listing(out)
        #expect(files.count == 1)
        #expect(files.first.flatMap { TemporaryDirectory.readBytes(out + "/" + $0) } == bytes)
    }

    @Test func badFileReferencesAreOneLineErrors() {
        let missing = cli.run(["store", "put", "Note", "n1", "--field", "body=@" + home.file("nope")])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("cannot read"))
        let twice = cli.run(["store", "put", "Note", "n1", "--field", "a=@-", "--field", "b=@-"], stdin: "x")
        #expect(twice.status == 65)
        #expect(twice.stderr.contains("only one field"))
        let binary = writeBytes("bin", [0xff, 0xfe, 0x00])
        let notText = cli.run(["store", "put", "Note", "n1", "--field", "body=@" + binary])
        #expect(notText.status == 65)
        #expect(notText.stderr.contains("not UTF-8"))
        // A TIMESTAMP's @<epoch seconds> is still a time, not a file.
        let time = cli.run(["store", "put", "Note", "n1", "--field", "at:TIMESTAMP=@1700000000", "--json"])
        #expect(time.status == 0, "\(time.stderr)")
    }
}
