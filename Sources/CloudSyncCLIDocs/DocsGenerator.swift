import CloudSyncCLI
import Glibc

/// The generated documentation of the command table: the man pages in `man/` and the bash, zsh
/// and fish completion scripts in `completions/`. `cloudsync __generate-docs` writes them, the
/// SwiftPM plugin `generate-docs` runs that, and a test checks the committed copies.
public struct DocsGenerator: Sendable {
    /// One generated file: its path relative to the package root and its text.
    public struct File: Sendable, Hashable {
        /// `man/cloudsync-zone.1`, `completions/_cloudsync`, …
        public var path: String
        /// The whole text.
        public var text: String
    }

    /// What went wrong writing or checking the files.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A folder could not be created.
        case cannotCreateFolder(path: String, reason: String)
        /// A file could not be written.
        case cannotWrite(path: String, reason: String)

        /// A human sentence.
        public var description: String {
            switch self {
            case .cannotCreateFolder(let path, let reason): "cannot create folder \(path): \(reason)"
            case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
            }
        }
    }

    /// The folder of the man pages.
    public static let manFolder = "man"
    /// The folder of the completion scripts.
    public static let completionsFolder = "completions"

    /// The whole command table.
    public var root: CommandSpec
    /// The version in the man pages.
    public var version: String

    /// A generator for `root` at `version`.
    public init(root: CommandSpec, version: String) {
        self.root = root
        self.version = version
    }

    /// Every file, man pages first.
    public func files() -> [File] {
        let pages = ManPageRenderer(version: version).pages(root: root)
        return pages.map { File(path: Self.manFolder + "/" + $0.fileName, text: $0.text) } + [
            File(path: Self.completionsFolder + "/cloudsync.bash", text: BashCompletionScript.render(root: root)),
            File(path: Self.completionsFolder + "/_cloudsync", text: ZshCompletionScript.render(root: root)),
            File(path: Self.completionsFolder + "/cloudsync.fish", text: FishCompletionScript.render(root: root)),
        ]
    }

    /// The files under `directory` that differ from what the table generates (or are missing),
    /// and generated-looking man pages (`man/cloudsync*.1`) the table no longer has.
    public func outdatedFiles(in directory: String) -> [String] {
        let outdated = files().filter { file in
            guard case .contents(let bytes) = FileSystem.readFile(directory + "/" + file.path, limit: 64 << 20) else { return true }
            return bytes != Array(file.text.utf8)
        }
        return outdated.map(\.path) + staleManPages(in: directory)
    }

    /// Writes every file under `directory` (creating `man/` and `completions/`), removes man
    /// pages of commands that no longer exist, and returns what it did, one line each
    /// (`wrote man/cloudsync.1`, `removed man/cloudsync-old.1`); files already up to date are
    /// left alone.
    @discardableResult
    public func write(to directory: String) throws(Failure) -> [String] {
        var changed: [String] = []
        for folder in [Self.manFolder, Self.completionsFolder] {
            let path = directory + "/" + folder
            do {
                try FileSystem.makeDirectories(path, mode: 0o755)
            } catch {
                throw .cannotCreateFolder(path: path, reason: SystemInfo.errorDescription(errno))
            }
        }
        for file in files() {
            let path = directory + "/" + file.path
            if case .contents(let bytes) = FileSystem.readFile(path, limit: 64 << 20), bytes == Array(file.text.utf8) { continue }
            try Self.writeFile(path, file.text)
            changed.append("wrote " + file.path)
        }
        for stale in staleManPages(in: directory) {
            unlink(directory + "/" + stale)
            changed.append("removed " + stale)
        }
        return changed
    }

    private func staleManPages(in directory: String) -> [String] {
        let expected = Set(files().map(\.path))
        return FileSystem.directoryEntries(directory + "/" + Self.manFolder)
            .filter { $0.hasPrefix(root.name) && $0.hasSuffix(".1") }
            .map { Self.manFolder + "/" + $0 }
            .filter { !expected.contains($0) }
            .sorted()
    }

    /// Writes `text` to a temporary file next to `path` and renames it into place.
    private static func writeFile(_ path: String, _ text: String) throws(Failure) {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: SystemInfo.errorDescription(errno)) }
        let failure = FileSystem.writeAll(fd, Array(text.utf8))
        close(fd)
        guard failure == 0, rename(temporary, path) == 0 else {
            let reason = SystemInfo.errorDescription(failure != 0 ? failure : errno)
            unlink(temporary)
            throw .cannotWrite(path: path, reason: reason)
        }
    }
}
