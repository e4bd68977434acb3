import CloudSyncCLI
import OTPCommand
import Testing

@Suite("The otp command table")
struct OTPCommandTableTests {
    @Test func hasNoMistakesAndBuildsEverySubcommandByItsName() {
        var registry = CommandRegistry()
        registry.register(OTPCommand.spec)
        #expect(registry.diagnostics().isEmpty)
        #expect(OTPCommand.spec.subcommands.map(\.name)
                == ["add", "code", "verify", "list", "show", "rename", "remove", "import", "export", "sync"])
        #expect(OTPCommand.spec.subcommand(named: "code")?.arguments.first?.name == "query")
    }
}
