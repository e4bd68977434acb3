import Glibc

/// Runs a child process with posix_spawn and waits for it (no Foundation.Process).
public enum ProcessRunner {
    /// Why a child could not be run.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// posix_spawn failed with this errno.
        case spawnFailed(path: String, errno: Int32)
        /// waitpid failed with this errno.
        case waitFailed(errno: Int32)

        /// A human sentence.
        public var description: String {
            switch self {
            case .spawnFailed(let path, let code):
                "cannot run '\(path)': \(SystemInfo.errorDescription(code))"
            case .waitFailed(let code):
                "cannot wait for the child process: \(SystemInfo.errorDescription(code))"
            }
        }
    }

    /// Runs `path` with `arguments` and `environment`, stdin inherited and stdout/stderr on the
    /// given descriptors, and waits for it.
    /// - Parameters:
    ///   - path: the executable.
    ///   - argv0: the program name the child sees (defaults to `path`).
    ///   - arguments: the arguments after argv[0].
    ///   - environment: the child's whole environment.
    ///   - stdout: the descriptor that becomes the child's stdout.
    ///   - stderr: the descriptor that becomes the child's stderr.
    ///   - stdin: the descriptor that becomes the child's stdin (inherited by default).
    ///   - newSession: start the child in a session of its own (`setsid`), without a
    ///     controlling terminal, so that closing the terminal does not stop it or what it leaves
    ///     running in the background.
    /// - Returns: the exit status, or 128 + the signal number if a signal killed the child.
    public static func run(_ path: String, argv0: String? = nil, arguments: [String],
                           environment: [String: String], stdout: Int32 = STDOUT_FILENO,
                           stderr: Int32 = STDERR_FILENO, stdin: Int32 = STDIN_FILENO,
                           newSession: Bool = false) throws(Failure) -> Int32 {
        try wait(start(path, argv0: argv0, arguments: arguments, environment: environment, stdout: stdout,
                       stderr: stderr, stdin: stdin, newSession: newSession))
    }

    /// Starts a child as `run` does, without waiting for it: the caller must `wait` for the
    /// returned process id.
    public static func start(_ path: String, argv0: String? = nil, arguments: [String],
                             environment: [String: String], stdout: Int32 = STDOUT_FILENO,
                             stderr: Int32 = STDERR_FILENO, stdin: Int32 = STDIN_FILENO,
                             newSession: Bool = false) throws(Failure) -> pid_t {
        let argv = CStringArray([argv0 ?? path] + arguments)
        let envp = CStringArray(environment.sorted { $0.key < $1.key }.map { $0.key + "=" + $0.value })
        defer {
            argv.free()
            envp.free()
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if stdin != STDIN_FILENO { posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO) }
        if stdout != STDOUT_FILENO { posix_spawn_file_actions_adddup2(&actions, stdout, STDOUT_FILENO) }
        if stderr != STDERR_FILENO { posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = defaultedSignals
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
                                                     | (newSession ? posixSpawnSetSID : 0)))

        // ETXTBSY: the program was written a moment ago and a process forked meanwhile (by
        // this process or another) still holds a write handle on it until its own exec closes
        // it. That clears within milliseconds, so retry for about a second before failing.
        var pid: pid_t = 0
        var spawned = posix_spawn(&pid, path, &actions, &attributes, argv.pointers, envp.pointers)
        var busyRetries = 0
        while spawned == ETXTBSY && busyRetries < 100 {
            busyRetries += 1
            usleep(10_000)
            spawned = posix_spawn(&pid, path, &actions, &attributes, argv.pointers, envp.pointers)
        }
        guard spawned == 0 else { throw .spawnFailed(path: path, errno: spawned) }
        return pid
    }

    /// Waits for a child started by `start` and returns its exit status (128 + the signal
    /// number if a signal killed it).
    public static func wait(_ pid: pid_t) throws(Failure) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { throw .waitFailed(errno: errno) }
        }
        return exitStatus(status)
    }

    /// glibc's `POSIX_SPAWN_SETSID` (since 2.26), which `spawn.h` declares only under
    /// `_GNU_SOURCE`, so Swift's Glibc module does not import it.
    static let posixSpawnSetSID: Int32 = 0x80

    /// The signals a child gets back at their default action (with an empty signal mask): every
    /// standard signal this process or whoever started it may have ignored (SIGPIPE, SIGTERM,
    /// SIGCHLD, …), so a plugin or `subscribe listen --exec` command can be stopped and sees a
    /// broken pipe as a shell's child would. Kept as inherited: SIGHUP, SIGINT and SIGQUIT,
    /// whose ignored state is a choice made for the whole job (`nohup`, a shell's background
    /// job), as a shell keeps it for its own children. SIGKILL and SIGSTOP cannot be changed.
    static let keptSignals: Set<Int32> = [SIGHUP, SIGINT, SIGQUIT, SIGKILL, SIGSTOP]

    /// The set of `keptSignals`' complement among the standard signals 1-31.
    static var defaultedSignals: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in Int32(1)...31 where !keptSignals.contains(signal) { sigaddset(&set, signal) }
        return set
    }

    /// Decodes a waitpid status: the exit code, or 128 + signal for a signal death.
    static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        if signal == 0 { return (status >> 8) & 0xff }
        return 128 + signal
    }
}

/// A NULL-terminated array of C strings for exec-style calls.
private struct CStringArray {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [String]) {
        count = strings.count
        pointers = .allocate(capacity: strings.count + 1)
        for (index, string) in strings.enumerated() {
            // A NUL inside a Swift string would truncate it in C; that is the best C can do.
            pointers[index] = strdup(string)
        }
        pointers[strings.count] = nil
    }

    func free() {
        for index in 0..<count { Glibc.free(pointers[index]) }
        pointers.deallocate()
    }
}
