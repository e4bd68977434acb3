import CloudSyncCLI
import CloudSyncSession
import Glibc

/// The REPL's line editor on GNU readline, through its callback interface: the editor polls
/// stdin and a self-pipe that the SIGINT and SIGWINCH handlers write to, so a Ctrl-C is handled
/// outside the signal handler (clear the line, fresh prompt) and a resize reaches readline.
/// Between lines readline's handler is removed, so commands run with the terminal as it was.
///
/// Only one editor may exist at a time (readline is global); create it on the thread that
/// runs the REPL and `close()` it at the end.
final class ReadlineEditor: LineEditor {
    private let readline: Readline
    private let signalPipeRead: Int32
    private let signalPipeWrite: Int32
    private var savedInterrupt = sigaction()
    private var savedResize = sigaction()
    private var savedMask = sigset_t()
    private var closed = false

    var completer: ((String) -> CompletionResult)? {
        get { ReadlineGlobals.completer }
        set { ReadlineGlobals.completer = newValue }
    }

    /// Sets readline up for cloudsync (see `Readline.configure`), bounds its history and
    /// installs the signal handlers.
    init(readline: Readline) {
        self.readline = readline
        ReadlineGlobals.readline = readline
        setlocale(LC_CTYPE, "")
        readline.configure(completion: readlineCompletion)
        readline.usingHistory()
        readline.stifleHistory(Int32(ReplHistory.maximumEntries))

        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        } else {
            fds = [-1, -1]
        }
        signalPipeRead = fds[0]
        signalPipeWrite = fds[1]
        ReadlineGlobals.signalPipeWrite = signalPipeWrite
        var action = sigaction()
        action.__sigaction_handler.sa_handler = replSignalHandler
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, &savedInterrupt)
        sigaction(SIGWINCH, &action, &savedResize)
        // A parent may have started us with these blocked; Ctrl-C must reach the prompt.
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, SIGINT)
        sigaddset(&handled, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &handled, &savedMask)
    }

    deinit { close() }

    /// Restores the signal handlers and releases the pipe.
    func close() {
        guard !closed else { return }
        closed = true
        pthread_sigmask(SIG_SETMASK, &savedMask, nil)
        sigaction(SIGINT, &savedInterrupt, nil)
        sigaction(SIGWINCH, &savedResize, nil)
        ReadlineGlobals.signalPipeWrite = -1
        ReadlineGlobals.completer = nil
        if signalPipeRead >= 0 { Glibc.close(signalPipeRead) }
        if signalPipeWrite >= 0 { Glibc.close(signalPipeWrite) }
    }

    func addHistory(_ line: String) {
        readline.addHistory(line)
    }

    func readLine(prompt: String) -> LineInput {
        // A Ctrl-C that stopped the previous command is not meant for this prompt; a resize
        // while it ran is.
        let pending = takeSignals()
        ReadlineGlobals.accepted = nil
        if pending.contains(SIGWINCH) { readline.resizeTerminal() }
        readline.callbackHandlerInstall(prompt, readlineLineHandler)
        while true {
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signalPipeRead, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, nfds_t(fds.count), -1) < 0 {
                if errno == EINTR { continue }
                readline.callbackHandlerRemove()
                return .endOfInput
            }
            if fds[1].revents != 0 {
                let signals = takeSignals()
                if signals.contains(SIGWINCH) { readline.resizeTerminal() }
                if signals.contains(SIGINT) {
                    abandonLine()
                    return .interrupted
                }
            }
            if fds[0].revents != 0 {
                readline.callbackReadChar()
                if let accepted = ReadlineGlobals.accepted { return accepted }
            }
        }
    }

    /// Ctrl-C: forget the line and any search or completion in progress, and leave the
    /// cursor on a fresh line (readline's handler is removed; the next prompt reinstalls it).
    private func abandonLine() {
        readline.freeLineState()
        readline.callbackSigcleanup()
        readline.replaceLine("", 0)
        readline.echoSignalChar(SIGINT)
        _ = readline.crlf()
        readline.callbackHandlerRemove()
    }

    /// The signals reported since the last call.
    private func takeSignals() -> Set<Int32> {
        var signals: Set<Int32> = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while signalPipeRead >= 0 {
            let count = read(signalPipeRead, &buffer, buffer.count)
            if count <= 0 { break }
            for byte in buffer[0..<count] { signals.insert(Int32(byte)) }
        }
        return signals
    }
}
