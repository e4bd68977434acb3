/// An error of a library below the command line that knows how the command line reports it:
/// the dispatcher reports `cliError` (its message and exit code) for it.
public protocol CLIErrorConvertible: Error {
    /// The error as the CLI reports it, with its exit code.
    var cliError: CLIError { get }
}
