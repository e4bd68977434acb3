import CloudSyncCLI
import Glibc

/// `otp code --clip`: copies a code with the first clipboard tool found on `$PATH` (wl-copy
/// first under Wayland, else xclip, xsel, wl-copy) and, as `pass` does, leaves a detached
/// child that clears the clipboard after `CLOUDSYNC_CLIP_TIME` seconds (45 by default) if it
/// still holds the code, so a code copied over in the meantime is left alone.
struct Clipboard {
    /// A clipboard program and how to copy, read and clear with it.
    enum Tool: String, CaseIterable {
        case wlCopy = "wl-copy"
        case xclip
        case xsel

        /// The Debian package that provides it.
        var package: String { self == .wlCopy ? "wl-clipboard" : rawValue }

        /// Arguments that copy stdin to the clipboard.
        var copyArguments: [String] {
            switch self {
            case .wlCopy: []
            case .xclip: ["-selection", "clipboard"]
            case .xsel: ["--clipboard", "--input"]
            }
        }
    }

    /// The default seconds before the clipboard is cleared (`pass` uses the same).
    static let defaultClearSeconds = 45
    /// The variable that changes it (as `PASSWORD_STORE_CLIP_TIME` does for `pass`).
    static let clearTimeVariable = "CLOUDSYNC_CLIP_TIME"

    let tool: Tool
    let path: String
    let environment: [String: String]

    /// The tools in the order they are tried: wl-copy first when `WAYLAND_DISPLAY` is set.
    static func order(_ environment: [String: String]) -> [Tool] {
        (environment["WAYLAND_DISPLAY"] ?? "").isEmpty ? [.xclip, .xsel, .wlCopy] : [.wlCopy, .xclip, .xsel]
    }

    /// The first tool found on `$PATH`.
    /// - Throws: `CLIError.unavailable` (69) naming the packages to install when there is none.
    static func find(environment: [String: String]) throws(CLIError) -> Clipboard {
        for tool in order(environment) {
            if let path = ExecutableSearch.find(tool.rawValue, path: environment["PATH"]) {
                return Clipboard(tool: tool, path: path, environment: environment)
            }
        }
        throw .unavailable("--clip needs wl-copy, xclip or xsel on $PATH: install the package wl-clipboard (Wayland) or xclip (X11)")
    }

    /// Seconds before clearing, from `CLOUDSYNC_CLIP_TIME`.
    /// - Throws: `CLIError.setting` for anything but whole seconds from 1 to 86400.
    static func clearSeconds(environment: [String: String]) throws(CLIError) -> Int {
        guard let text = environment[clearTimeVariable], !text.isEmpty else { return defaultClearSeconds }
        guard let seconds = Int(text), (1...86_400).contains(seconds) else {
            throw .setting("\(clearTimeVariable) must be whole seconds from 1 to 86400, got '\(text)'")
        }
        return seconds
    }

    /// Puts `text` on the clipboard (the tool reads it from a pipe; its own output, and any
    /// daemon it leaves to serve the selection, go to /dev/null).
    /// - Throws: `CLIError.unavailable` when the tool fails (no display, for instance).
    func copy(_ text: String) throws(CLIError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .internalError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        close(fds[1])
        defer { close(fds[0]) }
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        let status: Int32
        do {
            status = try ProcessRunner.run(path, argv0: tool.rawValue, arguments: tool.copyArguments,
                                           environment: environment, stdout: null, stderr: null, stdin: fds[0])
        } catch {
            throw .unavailable(error.description)
        }
        guard status == 0 else {
            throw .unavailable("\(tool.rawValue) could not copy to the clipboard (exit status \(status)); is a display running?")
        }
    }

    /// Starts a detached child (its own session, no terminal, /dev/null for every stream) that
    /// waits `seconds`, reads the clipboard and clears it only if it still holds `text`. The
    /// child's shell exits at once, so nothing is left to wait for; `text` travels in its
    /// environment, not its command line.
    func scheduleClear(of text: String, after seconds: Int) throws(CLIError) {
        guard let commands = clearCommands() else { return }
        let script = "( sleep \(seconds); [ \"$(\(commands.read) 2>/dev/null)\" = \"$CLOUDSYNC_CLIP_CODE\" ] && \(commands.clear) ) "
            + "</dev/null >/dev/null 2>&1 &"
        var childEnvironment = environment
        childEnvironment["CLOUDSYNC_CLIP_CODE"] = text
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if null >= 0 { close(null) } }
        do {
            _ = try ProcessRunner.run("/bin/sh", argv0: "sh", arguments: ["-c", script], environment: childEnvironment,
                                      stdout: null, stderr: null, stdin: null, newSession: true)
        } catch {
            throw .internalError(error.description)
        }
    }

    /// Shell commands that print and clear the clipboard; nil when the tool that reads it
    /// (wl-paste beside wl-copy) is missing, in which case nothing is cleared.
    func clearCommands() -> (read: String, clear: String)? {
        let tool = Self.quoted(path)
        switch self.tool {
        case .xclip:
            return ("\(tool) -selection clipboard -o", "printf '' | \(tool) -selection clipboard")
        case .xsel:
            return ("\(tool) --clipboard --output", "\(tool) --clipboard --clear")
        case .wlCopy:
            guard let paste = ExecutableSearch.find("wl-paste", path: environment["PATH"]) else { return nil }
            return ("\(Self.quoted(paste)) --no-newline", "\(tool) --clear")
        }
    }

    /// `text` in single quotes for sh.
    static func quoted(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
