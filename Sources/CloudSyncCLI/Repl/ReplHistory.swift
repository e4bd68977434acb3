import Glibc

/// The REPL's history file: `$CLOUDSYNC_HISTORY`, else `$XDG_STATE_HOME/cloudsync/history`
/// (`/dev/null` turns history off). One entry per line; each entry is appended as it is typed
/// (so a crash or a second session loses nothing), and the file is trimmed to the last
/// `maximumEntries` when a session ends. The file is mode 0600 in a 0700 folder.
///
/// Problems never stop the REPL: an unreadable, oversize or odd file is skipped with a
/// one-line warning and history is off for the session.
public final class ReplHistory {
    /// The most entries kept, in memory and on disk.
    public static let maximumEntries = 1000
    /// A larger file is not loaded (nor written) at all.
    public static let maximumFileSize = 1 << 20
    /// The variable that names the history file.
    public static let environmentVariable = "CLOUDSYNC_HISTORY"

    /// The file, or nil when history is off.
    public private(set) var path: String?
    /// The entries, oldest first (at most `maximumEntries`).
    public private(set) var entries: [String] = []
    private let warning: (String) -> Void
    /// Lines in the file as far as this session knows (to decide when to trim).
    private var linesOnDisk = 0

    /// The history file for this environment and settings, or nil if history is off.
    public static func location(environment: [String: String], settings: Settings) -> String? {
        if let path = environment[environmentVariable], !path.isEmpty {
            return path == "/dev/null" ? nil : path
        }
        guard !settings.stateDirectory.isEmpty else { return nil }
        return settings.stateDirectory + "/history"
    }

    /// Loads the history at `path` (nil: history off). Problems go to `warning`, one line each.
    public init(path: String?, warning: @escaping (String) -> Void) {
        self.path = path
        self.warning = warning
        guard let path else { return }
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT { return }
            disable("cannot read history file \(path): \(SystemInfo.errorDescription(errno))")
            return
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            disable("history file \(path) is not a regular file")
            return
        }
        guard info.st_size <= Self.maximumFileSize else {
            disable("history file \(path) is \(info.st_size) bytes, over the limit of \(Self.maximumFileSize); move it away to start afresh")
            return
        }
        switch FileSystem.readFile(path) {
        case .contents(let bytes):
            let lines = bytes.split(separator: UInt8(ascii: "\n")).map { line -> String in
                var line = line
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                return String(decoding: line, as: UTF8.self)
            }.filter { !$0.isEmpty }
            linesOnDisk = lines.count
            entries = Array(lines.suffix(Self.maximumEntries))
        case .missing:
            return
        case .failed(let reason):
            disable("cannot read history file \(path): \(reason)")
        case .notRegular:
            disable("history file \(path) is not a regular file")
        case .tooLarge:
            disable("history file \(path) is over the limit of \(Self.maximumFileSize) bytes; move it away to start afresh")
        }
    }

    /// Records a typed line. Blank lines, lines starting with a blank (a way to keep a command
    /// out of the history, as in bash and zsh) and repeats of the previous entry are skipped.
    /// Returns true if the line was recorded (the line editor should then remember it too).
    @discardableResult
    public func add(_ line: String) -> Bool {
        guard let first = line.first, first != " ", first != "\t", !line.contains("\n"),
              line != entries.last else { return false }
        entries.append(line)
        if entries.count > Self.maximumEntries { entries.removeFirst(entries.count - Self.maximumEntries) }
        append(line)
        return true
    }

    /// Ends the session: trims the file to the last `maximumEntries` lines if it grew longer.
    public func close() {
        guard let path, linesOnDisk > Self.maximumEntries else { return }
        guard case .contents(let bytes) = FileSystem.readFile(path), bytes.count <= Self.maximumFileSize else { return }
        let lines = bytes.split(separator: UInt8(ascii: "\n")).suffix(Self.maximumEntries)
        var text: [UInt8] = []
        for line in lines {
            text += line
            text.append(UInt8(ascii: "\n"))
        }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        fchmod(fd, 0o600)
        let complete = FileSystem.writeAll(fd, text) == 0
        Glibc.close(fd)
        if complete && rename(temporary, path) == 0 {
            linesOnDisk = lines.count
        } else {
            unlink(temporary)
        }
    }

    /// Appends one line to the file, creating it (0600) and its folder (0700) if needed.
    private func append(_ line: String) {
        guard let path else { return }
        do {
            try FileSystem.makeDirectories(FileSystem.parent(of: path), mode: 0o700)
        } catch {
            disable("cannot create the folder of history file \(path): \(error)")
            return
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            disable("cannot write history file \(path): \(SystemInfo.errorDescription(errno))")
            return
        }
        defer { Glibc.close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0 && info.st_mode & 0o077 != 0 { fchmod(fd, 0o600) }
        let failure = FileSystem.writeAll(fd, Array((line + "\n").utf8))
        guard failure == 0 else {
            disable("cannot write history file \(path): \(SystemInfo.errorDescription(failure))")
            return
        }
        linesOnDisk += 1
    }

    private func disable(_ message: String) {
        warning(message + "; history is off for this session")
        path = nil
    }
}
