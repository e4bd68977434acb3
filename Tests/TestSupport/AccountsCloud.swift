import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// Where the accounts of a multi-account scenario keep their cloud.
public enum AccountsBackend: String, CaseIterable, Sendable {
    /// One embedded SQLite cloud in one home that every account uses (`--account` picks).
    case embedded
    /// A `cloudsync serve` on 127.0.0.1 over its own SQLite cloud; each account runs in a home of
    /// its own that shares no file with the server or the others, with its own token.
    case serve
}

/// Several accounts on one cloud, run through the built binary, on either backend: a scenario
/// written once against `run(account, arguments)` runs on the embedded cloud and over HTTP.
/// Stops its server (SIGTERM) when released. Nothing in it changes after `init` (hence Sendable).
public final class AccountsCloud: @unchecked Sendable {
    public let backend: AccountsBackend
    /// The embedded cloud's home (the one home of every account), or the server's.
    public let home = TemporaryDirectory("accounts-cloud")
    private var homes: [String: TemporaryDirectory] = [:]
    private var runners: [String: BinaryRunner] = [:]
    /// The embedded cloud's one runner, for every account.
    private var shared: BinaryRunner?
    private let server: BackgroundProcess?
    /// The server's URL (serve only).
    public let url: String?

    /// `accounts` get a home and a token each on `serve` (on `embedded` any account runs);
    /// `environment` is every client's extra environment.
    public init(_ backend: AccountsBackend, accounts: [String], environment: [String: String] = [:]) throws {
        self.backend = backend
        switch backend {
        case .embedded:
            server = nil
            url = nil
            shared = BinaryRunner(home: home.path, extra: environment)
        case .serve:
            let admin = BinaryRunner(home: home.path)
            let cloud = "sqlite://" + home.file("cloud.sqlite")
            let process = BackgroundProcess(admin, ["serve", "--listen", "127.0.0.1:0", "--cloud", cloud],
                                            device: "server", stdout: home.file("out"), stderr: home.file("err"))
            server = process
            guard BackgroundProcess.waitForText("\n", in: home.file("out"), seconds: 20) else {
                kill(process.pid, SIGTERM)
                _ = process.wait(seconds: 20)
                throw CloudError(.networkUnavailable, "serve did not start: " + BackgroundProcess.read(home.file("err")))
            }
            let url = String(BackgroundProcess.read(home.file("out")).split(separator: "\n")[0].dropFirst("listening on ".count))
            self.url = url
            for account in accounts {
                let created = admin.run(["token", "create", "--account", account, "--cloud", cloud])
                guard created.status == 0 else { throw CloudError(.internalError, "token create: \(created.stderr)") }
                let token = created.stdout.split(separator: "\n").first.map(String.init) ?? ""
                let accountHome = TemporaryDirectory("accounts-cloud-\(account)")
                homes[account] = accountHome
                var extra = environment
                extra["CLOUDSYNC_CLOUD"] = url
                extra["CLOUDSYNC_TOKEN"] = token
                runners[account] = BinaryRunner(home: accountHome.path, extra: extra)
            }
        }
    }

    /// Runs cloudsync as `account` (`--account account`) on `device`, in that account's home.
    @discardableResult
    public func run(_ account: String, _ arguments: [String], device: String = "laptop", stdin: String = "",
                    env: [String: String] = [:]) -> ProcessResult {
        guard let runner = runner(account) else { preconditionFailure("the test made no home for account '\(account)'") }
        return runner.run(["--account", account] + arguments, device: device, stdin: stdin, env: env)
    }

    /// The account's client runner (its home and, on `serve`, its token), for runs that pass
    /// another `--account` on purpose.
    public func runner(_ account: String) -> BinaryRunner? { shared ?? runners[account] }

    deinit {
        if let server {
            kill(server.pid, SIGTERM)
            _ = server.wait(seconds: 20)
        }
    }
}
