import CloudSyncCLI
import Glibc
import TestSupport
import Testing

/// The history file: where it is, bounds, modes and bad files.
@Suite struct ReplHistoryTests {
    final class Warnings: @unchecked Sendable {
        var lines: [String] = []
    }

    @Test func locationFollowsTheEnvironment() throws {
        let settings = Settings(device: "d", home: "/h", stateDirectory: "/state/cloudsync")
        #expect(ReplHistory.location(environment: [:], settings: settings) == "/state/cloudsync/history")
        #expect(ReplHistory.location(environment: ["CLOUDSYNC_HISTORY": "/x/h"], settings: settings) == "/x/h")
        #expect(ReplHistory.location(environment: ["CLOUDSYNC_HISTORY": ""], settings: settings) == "/state/cloudsync/history")
        #expect(ReplHistory.location(environment: ["CLOUDSYNC_HISTORY": "/dev/null"], settings: settings) == nil)
    }

    @Test func entriesAreAppendedWithPrivateModesAndFiltered() throws {
        let folder = TemporaryDirectory("history")
        let path = folder.path + "/state/cloudsync/history"
        let warnings = Warnings()
        let history = ReplHistory(path: path) { warnings.lines.append($0) }
        #expect(history.entries.isEmpty)
        #expect(history.add("zone list"))
        #expect(!history.add("zone list"), "a repeat of the previous entry")
        #expect(!history.add(" secret --token x"), "a leading blank keeps a line out")
        #expect(!history.add(""))
        #expect(history.add("record get n1"))
        history.close()
        #expect(TemporaryDirectory.readBytes(path) == Array("zone list\nrecord get n1\n".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(folder.path + "/state/cloudsync", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(ReplHistory(path: path) { _ in }.entries == ["zone list", "record get n1"])
        #expect(warnings.lines.isEmpty)
    }

    @Test func theFileIsBounded() throws {
        let folder = TemporaryDirectory("history-bound")
        let old = (1...1500).map { "command \($0)" }.joined(separator: "\n") + "\n"
        let path = folder.write("history", old, mode: 0o644)
        let history = ReplHistory(path: path) { _ in }
        #expect(history.entries.count == ReplHistory.maximumEntries)
        #expect(history.entries.first == "command 501")
        history.add("newest")
        history.close()
        let lines = String(decoding: TemporaryDirectory.readBytes(path) ?? [], as: UTF8.self).split(separator: "\n")
        #expect(lines.count == ReplHistory.maximumEntries)
        #expect(lines.first == "command 502")
        #expect(lines.last == "newest")
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "tightened to 0600")
    }

    @Test func badFilesAreSkippedWithOneWarning() throws {
        let folder = TemporaryDirectory("history-bad")
        let big = folder.write("big", String(repeating: "x", count: ReplHistory.maximumFileSize + 1))
        let file = folder.write("file", "not a folder")
        folder.makeDirectory("dir")
        for (path, expected) in [(big, "over the limit"), (folder.file("dir"), "is not a regular file"),
                                 (file + "/history", "cannot read history file")] {
            let warnings = Warnings()
            let history = ReplHistory(path: path) { warnings.lines.append($0) }
            #expect(warnings.lines.count == 1, "\(path)")
            #expect(warnings.lines.first?.contains(expected) == true, "\(warnings.lines)")
            #expect(warnings.lines.first?.hasSuffix("history is off for this session") == true)
            #expect(history.path == nil)
            #expect(history.entries.isEmpty)
            history.add("zone list")
            history.close()
        }
        #expect(TemporaryDirectory.readBytes(big)?.count == ReplHistory.maximumFileSize + 1, "left alone")
    }

    @Test func invalidUTF8AndCarriageReturnsDoNotCrash() throws {
        let folder = TemporaryDirectory("history-bytes")
        let path = folder.file("history")
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        let bytes: [UInt8] = Array("zone list\r\n".utf8) + [0xFF, 0xFE, 0x0A] + Array("help\n".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let history = ReplHistory(path: path) { _ in }
        #expect(history.entries.count == 3)
        #expect(history.entries.first == "zone list")
        #expect(history.entries.last == "help")
    }
}
