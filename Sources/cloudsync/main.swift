import CloudSyncCLI
import CloudCommand
import CloudSyncPostgresCloud
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
import TourCommand
import WhoamiCommand
import ZoneCommand

/// The version `cloudsync --version` prints.
let version = "0.1.0"

// Backends with libraries of their own: libpq loads only when a postgres:// URL is opened.
PostgresCloud.registerWithLocator()

/// The builtin command families, in the order `cloudsync help` lists them. Each is built only
/// when a command line reaches it (help, completion and the generators build them all).
var registry = CommandRegistry()
registry.register("zone") { ZoneCommand.spec }
registry.register("record") { RecordCommand.spec }
registry.register("fetch-changes") { FetchChangesCommand.spec }
registry.register("store") { StoreCommand.spec }
registry.register("kv") { KVCommand.spec }
registry.register("subscribe") { SubscribeCommand.spec }
registry.register("share") { ShareCommand.spec }
registry.register("schema") { SchemaCommand.spec }
registry.register("keys") { KeysCommand.spec }
registry.register("message") { MessageCommand.spec }
registry.register("otp") { OTPCommand.spec }
registry.register("serve") { ServeCommand.spec }
registry.register("token") { TokenCommand.spec }
registry.register("login") { LoginCommand.spec }
registry.register("tour") { TourCommand.spec }
registry.register("whoami") { WhoamiCommand.spec }
registry.register("cloud") { CloudCommand.spec }

/// Live completion values for the REPL and the shell scripts (zone names, record types, record
/// names); a family that brings a new CompletionKind adds its provider with `.adding(_:_:)`.
/// Built only by the commands that complete.
@Sendable func liveValues() -> LiveValueSource {
    LiveValueSource.cloud
        .adding(.otpName, OTPCommand.liveNames)
        .adding(.subscriptionID, SubscribeCommand.subscriptionIDs)
}
registry.register("repl") { ReplCommand.spec(liveValues: liveValues()) }
registry.register(CompleteCommand.name) { CompleteCommand.spec(liveValues: liveValues()) }
registry.register(GenerateDocsCommand.name) { GenerateDocsCommand.spec }

Dispatcher(registry: registry, version: version).main()
