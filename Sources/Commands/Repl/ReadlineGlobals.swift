import CloudSyncCLI
import CloudSyncSession
import Glibc

/// The state GNU readline's C callbacks and the REPL's signal handlers reach, in one place.
///
/// Readline is a single global C object, and C callbacks cannot capture Swift context, so this
/// state is global too. It is safe because every access happens on the one thread that runs
/// the REPL, inside `ReadlineEditor` calls (readline invokes the callbacks synchronously from
/// `rl_callback_read_char`), with one exception: the signal handler, which only reads
/// `signalPipeWrite` (set before the handler is installed) and calls `write(2)`, which is
/// async-signal-safe. Hence `nonisolated(unsafe)`, and nothing else should touch these.
enum ReadlineGlobals {
    /// The loaded library, for the callbacks (set by `ReadlineEditor` before readline runs).
    nonisolated(unsafe) static var readline: Readline?
    /// Asked by the completion callback for the text left of the cursor.
    nonisolated(unsafe) static var completer: ((String) -> CompletionResult)?
    /// The candidates of the completion in progress, handed out by the generator.
    nonisolated(unsafe) static var matches: [String] = []
    /// The next candidate the generator hands out.
    nonisolated(unsafe) static var nextMatch = 0
    /// Set by the line callback: the line read, or the end of input.
    nonisolated(unsafe) static var accepted: LineInput?
    /// The write end of the self-pipe the signal handler reports signals through.
    nonisolated(unsafe) static var signalPipeWrite: Int32 = -1
}

/// readline's line callback (`rl_vcpfunc_t`): stores the line and removes the handler, which
/// restores the terminal before the command runs.
let readlineLineHandler: Readline.LineHandler = { line in
    if let line {
        ReadlineGlobals.accepted = .line(String(cString: line))
        free(line)
    } else {
        ReadlineGlobals.accepted = .endOfInput
    }
    ReadlineGlobals.readline?.callbackHandlerRemove()
}

/// readline's completion callback (`rl_completion_func_t`): asks the REPL's completer.
let readlineCompletion: Readline.CompletionFunction = { text, _, _ in
    guard let readline = ReadlineGlobals.readline else { return nil }
    readline.attemptedCompletionOver.pointee = 1
    guard let completer = ReadlineGlobals.completer, let buffer = readline.lineBuffer.pointee else { return nil }
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self),
                                    count: Int(max(0, readline.point.pointee)))
    let before = String(decoding: bytes, as: UTF8.self)
    switch completer(before) {
    case .files:
        readline.attemptedCompletionOver.pointee = 0
        return nil
    case .candidates(let candidates):
        guard !candidates.isEmpty else { return nil }
        ReadlineGlobals.matches = candidates.map(\.value)
        ReadlineGlobals.nextMatch = 0
        return readline.completionMatches(text, readlineCompletionGenerator)
    }
}

/// readline's candidate generator (`rl_compentry_func_t`): one `malloc`ed candidate per call,
/// nil at the end; readline frees them.
let readlineCompletionGenerator: Readline.CompletionGenerator = { _, state in
    if state == 0 { ReadlineGlobals.nextMatch = 0 }
    guard ReadlineGlobals.nextMatch < ReadlineGlobals.matches.count else { return nil }
    defer { ReadlineGlobals.nextMatch += 1 }
    return strdup(ReadlineGlobals.matches[ReadlineGlobals.nextMatch])
}

/// The handler of SIGINT and SIGWINCH while the REPL runs: reports the signal number through
/// the self-pipe, which the editor's poll loop watches.
let replSignalHandler: @convention(c) (Int32) -> Void = { signal in
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(ReadlineGlobals.signalPipeWrite, &byte, 1)
    errno = saved
}
