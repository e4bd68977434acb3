import CReadline
import CloudSyncCLI
import CloudSyncSession
import CloudSyncCore
import Glibc

/// GNU readline, opened with `dlopen` when the interactive REPL starts instead of linked into
/// every cloudsync process (it brings libtinfo too). Its functions are typed C function
/// pointers; its settings are C globals, reached through the addresses `dlsym` gives (the
/// library's own copies: nothing in the executable refers to them).
///
/// Like readline itself, use it from the one thread that runs the REPL.
struct Readline: @unchecked Sendable {
    /// The soname of readline 8.
    static let soname = "libreadline.so.8"

    typealias Action = @convention(c) () -> Void
    typealias CountAction = @convention(c) (Int32) -> Void
    typealias LineAction = @convention(c) (UnsafePointer<CChar>?) -> Void
    typealias Crlf = @convention(c) () -> Int32
    typealias ReplaceLine = @convention(c) (UnsafePointer<CChar>?, Int32) -> Void
    typealias InstallHandler = @convention(c) (UnsafePointer<CChar>?, LineHandler?) -> Void
    typealias CompletionMatches = @convention(c) (UnsafePointer<CChar>?, CompletionGenerator?)
        -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    /// `rl_vcpfunc_t`.
    typealias LineHandler = @convention(c) (UnsafeMutablePointer<CChar>?) -> Void
    /// `rl_compentry_func_t`.
    typealias CompletionGenerator = @convention(c) (UnsafePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>?
    /// `rl_completion_func_t`.
    typealias CompletionFunction = @convention(c) (UnsafePointer<CChar>?, Int32, Int32)
        -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    // Functions.
    let usingHistory: Action
    let stifleHistory: CountAction
    let addHistory: LineAction
    let callbackHandlerInstall: InstallHandler
    let callbackHandlerRemove: Action
    let callbackReadChar: Action
    let callbackSigcleanup: Action
    let resizeTerminal: Action
    let freeLineState: Action
    let replaceLine: ReplaceLine
    let echoSignalChar: CountAction
    let crlf: Crlf
    let completionMatches: CompletionMatches

    // Settings and state (C globals).
    let readlineName: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let catchSignals: UnsafeMutablePointer<Int32>
    let catchSigwinch: UnsafeMutablePointer<Int32>
    let changeEnvironment: UnsafeMutablePointer<Int32>
    let completerWordBreakCharacters: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let completerQuoteCharacters: UnsafeMutablePointer<UnsafePointer<CChar>?>
    let attemptedCompletionFunction: UnsafeMutablePointer<CompletionFunction?>
    let attemptedCompletionOver: UnsafeMutablePointer<Int32>
    let lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    let point: UnsafeMutablePointer<Int32>

    /// The library, loaded on the first call (once per process).
    static func shared() throws(SharedLibraryError) -> Readline {
        try loaded.get()
    }

    private static let loaded: Result<Readline, SharedLibraryError> = Result { () throws(SharedLibraryError) in
        try Readline()
    }

    private init() throws(SharedLibraryError) {
        var library = try SharedLibrary(Readline.soname, package: "libreadline8")
        let usingHistory = library.function("using_history", as: Action.self)
        let stifleHistory = library.function("stifle_history", as: CountAction.self)
        let addHistory = library.function("add_history", as: LineAction.self)
        let callbackHandlerInstall = library.function("rl_callback_handler_install", as: InstallHandler.self)
        let callbackHandlerRemove = library.function("rl_callback_handler_remove", as: Action.self)
        let callbackReadChar = library.function("rl_callback_read_char", as: Action.self)
        let callbackSigcleanup = library.function("rl_callback_sigcleanup", as: Action.self)
        let resizeTerminal = library.function("rl_resize_terminal", as: Action.self)
        let freeLineState = library.function("rl_free_line_state", as: Action.self)
        let replaceLine = library.function("rl_replace_line", as: ReplaceLine.self)
        let echoSignalChar = library.function("rl_echo_signal_char", as: CountAction.self)
        let crlf = library.function("rl_crlf", as: Crlf.self)
        let completionMatches = library.function("rl_completion_matches", as: CompletionMatches.self)
        let readlineName = library.variable("rl_readline_name", as: UnsafePointer<CChar>?.self)
        let catchSignals = library.variable("rl_catch_signals", as: Int32.self)
        let catchSigwinch = library.variable("rl_catch_sigwinch", as: Int32.self)
        let changeEnvironment = library.variable("rl_change_environment", as: Int32.self)
        let wordBreaks = library.variable("rl_completer_word_break_characters", as: UnsafePointer<CChar>?.self)
        let quotes = library.variable("rl_completer_quote_characters", as: UnsafePointer<CChar>?.self)
        let completionFunction = library.variable("rl_attempted_completion_function", as: CompletionFunction?.self)
        let completionOver = library.variable("rl_attempted_completion_over", as: Int32.self)
        let lineBuffer = library.variable("rl_line_buffer", as: UnsafeMutablePointer<CChar>?.self)
        let point = library.variable("rl_point", as: Int32.self)
        try library.checkResolved()
        // checkResolved threw if any of these is nil.
        self.usingHistory = usingHistory!
        self.stifleHistory = stifleHistory!
        self.addHistory = addHistory!
        self.callbackHandlerInstall = callbackHandlerInstall!
        self.callbackHandlerRemove = callbackHandlerRemove!
        self.callbackReadChar = callbackReadChar!
        self.callbackSigcleanup = callbackSigcleanup!
        self.resizeTerminal = resizeTerminal!
        self.freeLineState = freeLineState!
        self.replaceLine = replaceLine!
        self.echoSignalChar = echoSignalChar!
        self.crlf = crlf!
        self.completionMatches = completionMatches!
        self.readlineName = readlineName!
        self.catchSignals = catchSignals!
        self.catchSigwinch = catchSigwinch!
        self.changeEnvironment = changeEnvironment!
        self.completerWordBreakCharacters = wordBreaks!
        self.completerQuoteCharacters = quotes!
        self.attemptedCompletionFunction = completionFunction!
        self.attemptedCompletionOver = completionOver!
        self.lineBuffer = lineBuffer!
        self.point = point!
    }

    /// Sets readline up for the cloudsync REPL: application name "cloudsync" (for `$if` in
    /// ~/.inputrc), no signal handlers of readline's own (the REPL handles SIGINT and SIGWINCH),
    /// LINES/COLUMNS left alone, words broken at blanks and '=', quotes ' and ", and `completion`
    /// as the attempted-completion function. The strings are the shim's C literals (static
    /// storage), as readline keeps the pointers.
    func configure(completion: CompletionFunction) {
        readlineName.pointee = cloudsync_rl_readline_name()
        catchSignals.pointee = 0
        catchSigwinch.pointee = 0
        changeEnvironment.pointee = 0
        completerWordBreakCharacters.pointee = cloudsync_rl_word_break_characters()
        completerQuoteCharacters.pointee = cloudsync_rl_quote_characters()
        attemptedCompletionFunction.pointee = completion
    }
}
