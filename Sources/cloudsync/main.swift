import CloudSyncCLI
import FetchChangesCommand
import KVCommand
import KeysCommand
import OTPCommand
import RecordCommand
import ReplCommand
import StoreCommand
import SubscribeCommand
import TourCommand
import ZoneCommand

/// The version `cloudsync --version` prints.
let version = "0.1.0"

/// The builtin command families, in the order `cloudsync help` lists them.
var registry = CommandRegistry()
registry.register(ZoneCommand.spec)
registry.register(RecordCommand.spec)
registry.register(FetchChangesCommand.spec)
registry.register(StoreCommand.spec)
registry.register(KVCommand.spec)
registry.register(SubscribeCommand.spec)
registry.register(KeysCommand.spec)
registry.register(OTPCommand.spec)
registry.register(TourCommand.spec)

/// Live completion values for the REPL and the shell scripts (zone names, record types, record
/// names); a family that brings a new CompletionKind adds its provider with `.adding(_:_:)`.
let liveValues = LiveValueSource.cloud
    .adding(.otpName, OTPCommand.liveNames)
    .adding(.subscriptionID, SubscribeCommand.subscriptionIDs)
registry.register(ReplCommand.spec(liveValues: liveValues))
registry.register(CompleteCommand.spec(liveValues: liveValues))
registry.register(GenerateDocsCommand.spec)

Dispatcher(registry: registry, version: version).main()
