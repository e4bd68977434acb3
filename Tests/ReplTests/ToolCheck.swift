import Glibc
import TestSupport
import Testing

/// External programs the tests drive, and the Debian package that provides each. A missing
/// tool fails the test with the package to install; nothing is skipped silently.
enum Tool: String {
    case tmux, mandoc, groff, bash, zsh, fish

    /// The Debian package to install.
    var package: String {
        switch self {
        case .groff: "groff-base"
        default: rawValue
        }
    }

    /// The tool's path, or nil (recording a test failure) if it is not installed.
    func path(sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        for folder in ["/usr/bin", "/bin", "/usr/local/bin"] {
            let candidate = folder + "/" + rawValue
            if access(candidate, X_OK) == 0 { return candidate }
        }
        Issue.record("\(rawValue) is not installed: run 'apt-get install \(package)' (or scripts/install-deps)",
                     sourceLocation: sourceLocation)
        return nil
    }

    /// Runs the tool with arguments and the given environment.
    func run(_ arguments: [String], environment: [String: String] = Tool.environment, stdin: String = "",
             sourceLocation: SourceLocation = #_sourceLocation) -> ProcessResult? {
        guard let path = path(sourceLocation: sourceLocation) else { return nil }
        return ProcessSpawner.run(path, arguments, environment: environment, stdin: stdin)
    }

    /// A plain environment with the folder of the built cloudsync first on PATH.
    static var environment: [String: String] {
        ["PATH": BinaryRunner.productsDirectory + ":/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp",
         "TERM": "dumb"]
    }
}

/// The package folder (for the committed man/ and completions/).
enum PackageFolder {
    static let path: String = {
        var path = #filePath
        for _ in 0..<3 {
            guard let slash = path.lastIndex(of: "/") else { return "." }
            path = String(path[..<slash])
        }
        return path
    }()
}
