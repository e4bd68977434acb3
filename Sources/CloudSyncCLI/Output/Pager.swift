import Glibc

/// Long help through a pager, as git pages its output: only when stdout is a terminal, with
/// `$CLOUDSYNC_PAGER`, else `$PAGER`, else `less -FRX` (quit at once if the text fits one
/// screen, keep colors, leave the text on the screen) when less is on `$PATH`. An empty pager
/// or `cat` means none. The command runs through `/bin/sh -c`, so it may carry options.
public enum Pager {
    /// The default pager command.
    public static let defaultCommand = "less -FRX"

    /// The pager command for `environment`, or nil for none.
    public static func command(environment: [String: String]) -> String? {
        let chosen = environment["CLOUDSYNC_PAGER"] ?? environment["PAGER"]
        if let chosen {
            let trimmed = chosen.trimmingBlanksAround()
            return trimmed.isEmpty || trimmed == "cat" ? nil : trimmed
        }
        return ExecutableSearch.find("less", path: environment["PATH"]) == nil ? nil : defaultCommand
    }

    /// Shows `text` on stdout, through the pager when stdout is a terminal and there is one;
    /// otherwise (piped, `--json`, no pager, or a pager that cannot start) writes it directly.
    public static func show(_ text: TerminalText, output: Output, environment: [String: String]) {
        guard output.isTTY, !output.isJSON, let command = command(environment: environment) else {
            output.write(text)
            return
        }
        output.flush()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            output.write(text)
            return
        }
        // The write end must not reach the pager, or it would never see the end of the text.
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        let pid: pid_t
        do {
            pid = try ProcessRunner.start("/bin/sh", argv0: "sh", arguments: ["-c", command], environment: environment,
                                          stdout: output.standardOutput, stderr: output.standardError, stdin: fds[0])
        } catch {
            close(fds[0])
            close(fds[1])
            output.write(text)
            return
        }
        close(fds[0])
        // Quitting the pager early closes the pipe: that is EPIPE here, not a SIGPIPE death.
        let previous = signal(SIGPIPE, SIG_IGN)
        _ = FileSystem.writeAll(fds[1], Array(text.rendered(color: output.useColor).utf8))
        close(fds[1])
        _ = try? ProcessRunner.wait(pid)
        signal(SIGPIPE, previous)
    }
}
