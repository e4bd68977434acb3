#if canImport(Glibc)
import Glibc
#endif

/// Questions asked on the terminal.
public enum Prompt {
    /// Asks a yes/no question on stderr (through `output`, so pending stdout is flushed first)
    /// and reads the answer from stdin; only `y`/`yes` is yes. End of input is no.
    public static func confirm(_ question: TerminalText, output: Output) -> Bool {
        output.writeError(question)
        guard let answer = readLine() else { return false }
        let text = answer.lowercased()
        return text == "y" || text == "yes"
    }

    /// Reports a confirmation answered "no": what was kept, on stdout (stderr with `--json`, so
    /// stdout stays JSON), without `error:`. The command then ends with status 0, as git and apt
    /// do when the user declines: nothing failed.
    public static func declined(_ text: TerminalText, output: Output) {
        if output.isJSON { output.writeError(text.appending("\n")) } else { output.line(text) }
    }

    /// Reads a secret from the terminal with echo off (restored even on error). Nil when stdin
    /// is not a terminal or input ended.
    public static func secret(_ question: TerminalText, output: Output) -> String? {
        guard isatty(0) == 1 else { return nil }
        output.writeError(question)
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(0, TCSAFLUSH, &silent)
        let answer = readLine()
        tcsetattr(0, TCSAFLUSH, &saved)
        output.writeError("\n")
        return answer
    }
}
