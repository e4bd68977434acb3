import CloudSyncCLI
import FetchChangesCommand
import RecordCommand
import StoreCommand
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
registry.register(TourCommand.spec)

Dispatcher(registry: registry, version: version).main()
