import Glibc

/// Facts about the machine and the terminal.
public enum SystemInfo {
    /// True if the descriptor is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// The columns of the terminal `fd` is: its window size, else `$COLUMNS`, else 80.
    static func terminalWidth(_ fd: Int32) -> Int {
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
        return 80
    }

    /// The host name up to its first dot, made into a valid device name (`localhost` if unknown).
    static func shortHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let ok = buffer.withUnsafeMutableBufferPointer { pointer -> Bool in
            guard let base = pointer.baseAddress else { return false }
            return gethostname(base, pointer.count - 1) == 0
        }
        guard ok else { return "localhost" }
        let full = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let short = full.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        var name = String(short.map { Settings.isNameCharacter($0) ? $0 : "-" }.prefix(64))
        if name.isEmpty { name = "localhost" }
        return name
    }

    /// `$HOME`, else the password database entry of the current user, else `/`.
    static func homeDirectory(environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        let status = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
            guard let base = pointer.baseAddress else { return ERANGE }
            return getpwuid_r(getuid(), &entry, base, pointer.count, &result)
        }
        if status == 0, result != nil, let dir = entry.pw_dir {
            let path = String(cString: dir)
            if !path.isEmpty { return path }
        }
        return "/"
    }

    /// The text of `strerror(code)`.
    public static func errorDescription(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
