import CloudSyncCore

extension SharedLibraryError {
    /// The error as the CLI reports it (exit 69, a support file is unavailable).
    public var cliError: CLIError { .unavailable(description) }
}
