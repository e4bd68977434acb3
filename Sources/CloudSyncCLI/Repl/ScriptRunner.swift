import Glibc

/// Script mode of the REPL: runs one command per line from a file or from stdin when it is not
/// a terminal. Blank lines and `#` comments are skipped, a trailing backslash continues a line,
/// `use` and `exit` work as in the REPL. The status is that of the first failing line, else 0;
/// with `bail` the script stops at that line.
public struct ScriptRunner {
    /// What to run the script with.
    public var interpreter: ReplInterpreter
    /// Stop at the first failing line.
    public var bail: Bool
    /// Print each line to stderr (`+ line`) before running it, as `sh -x` does.
    public var echo: Bool
    /// Where the session's own messages go.
    public var output: Output

    /// A script runner.
    public init(interpreter: ReplInterpreter, bail: Bool, echo: Bool, output: Output) {
        self.interpreter = interpreter
        self.bail = bail
        self.echo = echo
        self.output = output
    }

    /// Runs the lines of `reader`; `source` names it in messages (`-` for stdin, `setup.cloudsync`):
    /// every error of a line starts `SOURCE:LINE:`, as psql writes them.
    public func run(_ reader: FileLineReader, source: String) -> Int32 {
        var firstFailure: Int32 = 0
        while let (number, line) = reader.nextLogicalLine() {
            let text = line.trimmingBlanksAround()
            if text.isEmpty || text.hasPrefix("#") { continue }
            if echo { output.writeError("+ \(text)\n") }
            switch interpreter.execute(text, location: "\(source):\(number)") {
            case .empty:
                continue
            case .exit:
                return firstFailure
            case .ran(let status):
                guard status != 0 else { continue }
                if firstFailure == 0 { firstFailure = status }
                if bail {
                    if !output.isJSON {
                        output.writeError("\(Dispatcher.programName): \(source):\(number): stopped at the first failure (exit status \(status)) because of --bail\n")
                    }
                    return firstFailure
                }
            }
        }
        if reader.overlong {
            output.error("\(source):\(reader.lineNumber + 1): a line is longer than \(FileLineReader.maximumLineBytes >> 20) MiB; stopped")
            return ExitCode.dataError.rawValue
        }
        return firstFailure
    }

    /// Runs the script on stdin: commands get /dev/null as their stdin, so one that reads
    /// stdin cannot swallow the lines after it.
    public func runStandardInput() -> Int32 {
        let script = dup(STDIN_FILENO)
        guard script >= 0 else { return run(FileLineReader(fd: STDIN_FILENO), source: "-") }
        defer { close(script) }
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if null >= 0 {
            dup2(null, STDIN_FILENO)
            close(null)
        }
        defer { dup2(script, STDIN_FILENO) }
        return run(FileLineReader(fd: script), source: "-")
    }

    /// Runs the script in the file at `path`.
    public func runFile(_ path: String) throws(CLIError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let reason = "cannot read script \(path): \(SystemInfo.errorDescription(code))"
            throw code == ENOENT ? .notFound(reason) : .failed(reason)
        }
        defer { close(fd) }
        return run(FileLineReader(fd: fd), source: path)
    }
}
