import CloudSyncCLI
import CloudSyncCommands
import Testing

/// The real command table, in-process: the composition root lives in CloudSyncCommands.
@Suite struct CommandTableTests {
    @Test func theRealTableHasNoDiagnostics() {
        #expect(CommandTable.registry().diagnostics() == [])
    }

    @Test func theRootListsEveryRegisteredFamilyAndHelp() {
        let root = CommandTable.dispatcher().rootCommand
        let names = root.subcommands.map(\.name)
        for family in ["zone", "record", "fetch-changes", "store", "kv", "subscribe", "share", "schema", "keys",
                       "message", "otp", "serve", "token", "login", "tour", "whoami", "cloud", "repl", "help"] {
            #expect(names.contains(family), "\(family) is not in the table")
        }
        #expect(CommandTable.dispatcher().version == CommandTable.version)
    }
}
