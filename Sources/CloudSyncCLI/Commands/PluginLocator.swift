/// Finds git-style plugins: an executable `cloudsync-<name>` in `$CLOUDSYNC_EXEC_PATH`
/// (colon-separated), then in `$PATH`. Empty path entries are skipped (they would mean the
/// current directory).
public struct PluginLocator: Sendable {
    /// A plugin found on the search path.
    public struct Plugin: Sendable, Hashable {
        /// The command name (`hello` for `cloudsync-hello`).
        public var name: String
        /// The executable's path.
        public var path: String
    }

    /// The file-name prefix of plugins.
    public static let prefix = Dispatcher.programName + "-"

    /// The folders searched, in order.
    public let searchPath: [String]

    /// A locator for `CLOUDSYNC_EXEC_PATH` then `PATH` of `environment`.
    public init(environment: [String: String]) {
        let execPath = environment["CLOUDSYNC_EXEC_PATH"] ?? ""
        let path = environment["PATH"] ?? ""
        let folders = (execPath.split(separator: ":") + path.split(separator: ":")).map(String.init)
        var seen: Set<String> = []
        searchPath = folders.filter { seen.insert($0).inserted }
    }

    /// A locator over the given folders.
    public init(searchPath: [String]) {
        self.searchPath = searchPath
    }

    /// The executable for `cloudsync-<name>`, or nil. Names with a `/` or a NUL never match.
    public func find(_ name: String) -> String? {
        guard Self.isPluginName(name) else { return nil }
        for folder in searchPath {
            let candidate = Self.join(folder, Self.prefix + name)
            if FileSystem.isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// Every plugin on the search path, sorted by name; the first folder wins for a name.
    public func all() -> [Plugin] {
        var found: [String: String] = [:]
        for folder in searchPath {
            for entry in FileSystem.directoryEntries(folder) where entry.hasPrefix(Self.prefix) {
                let name = String(entry.dropFirst(Self.prefix.count))
                guard Self.isPluginName(name), found[name] == nil else { continue }
                let path = Self.join(folder, entry)
                if FileSystem.isExecutableFile(path) { found[name] = path }
            }
        }
        return found.map { Plugin(name: $0.key, path: $0.value) }.sorted { $0.name < $1.name }
    }

    static func isPluginName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("-") && !name.contains("/") && !name.contains("\0")
    }

    private static func join(_ folder: String, _ file: String) -> String {
        folder.hasSuffix("/") ? folder + file : folder + "/" + file
    }
}
