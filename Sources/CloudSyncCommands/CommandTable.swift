import CloudSyncCLI
import CloudSyncCLIDocs
import CloudSyncSession
import CloudCommand
import CloudSyncPostgresCloud
import CloudSyncSQLiteCloud
import CloudSyncService
import CloudSyncWebClient
import FetchChangesCommand
import KVCommand
import KeysCommand
import MessageCommand
import OTPCommand
import RecordCommand
import SchemaCommand
import ReplCommand
import ServeCommand
import ShareCommand
import StoreCommand
import SubscribeCommand
import SyncCommand
import TourCommand
import WhoamiCommand
import ZoneCommand

/// The composition root of the `cloudsync` executable: the registry of command families and the
/// backends with libraries of their own. It lives in a library so that tests can check the real
/// command table in-process (`registry().diagnostics()` must be empty); the executable's
/// `main.swift` only calls `CommandTable.main()`.
public enum CommandTable {
    /// The version `cloudsync --version` prints.
    public static let version = "0.1.0"

    /// Registers every backend `--cloud` can name, each the same way and in the order messages
    /// list them (a backend's library loads only when one of its URLs is opened: libpq, libcurl),
    /// and the session layer's settings checks (the `--cloud` URL's forms).
    public static func registerBackends() {
        CloudLocator.register(SQLiteCloud.backend)
        CloudLocator.register(PostgresCloud.backend)
        CloudLocator.register(HTTPCloud.backend)
        SessionSettings.registerChecks()
    }

    /// Live completion values for the REPL and the shell scripts. Each live `CompletionKind`
    /// carries its provider (the families declare their own kinds: `otpName`,
    /// `subscriptionID`), so nothing is registered here. Built only by the commands that
    /// complete.
    @Sendable static func liveValues() -> LiveValueSource {
        LiveValueSource.cloud
    }

    /// The builtin command families, in the order `cloudsync help` lists them, then the REPL
    /// and the hidden entry points. Each is built only when a command line reaches it (help,
    /// completion and the generators build them all).
    public static func registry() -> CommandRegistry {
        var registry = CommandRegistry()
        registry.register("zone") { ZoneCommand.spec }
        registry.register("record") { RecordCommand.spec }
        registry.register("fetch-changes") { FetchChangesCommand.spec }
        registry.register("store") { StoreCommand.spec(syncRules: storeSyncRules()) }
        registry.register("sync") { SyncCommand.spec(rules: storeSyncRules()) }
        registry.register("kv") { KVCommand.spec }
        registry.register("subscribe") { SubscribeCommand.spec }
        registry.register("share") { ShareCommand.spec }
        registry.register("schema") { SchemaCommand.spec }
        registry.register("keys") { KeysCommand.spec }
        registry.register("message") { MessageCommand.spec }
        registry.register("otp") { OTPCommand.spec }
        registry.register("serve") { ServeCommand.spec }
        registry.register("token") { TokenCommand.spec }
        registry.register("admin") { AdminCommand.spec }
        registry.register("login") { LoginCommand.spec }
        registry.register("tour") { TourCommand.spec }
        registry.register("whoami") { WhoamiCommand.spec }
        registry.register("cloud") { CloudCommand.spec }
        registry.register("repl") { ReplCommand.spec(liveValues: liveValues()) }
        registry.register(CompleteCommand.name) { CompleteCommand.spec(liveValues: liveValues()) }
        registry.register(GenerateDocsCommand.name) { GenerateDocsCommand.spec }
        return registry
    }

    /// The dispatcher over `registry()`.
    public static func dispatcher() -> Dispatcher {
        Dispatcher(registry: registry(), version: version)
    }

    /// Runs the process's command line: registers the backends, dispatches, exits.
    public static func main() -> Never {
        registerBackends()
        dispatcher().main()
    }
}
