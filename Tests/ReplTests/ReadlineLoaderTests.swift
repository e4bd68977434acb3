@testable import ReplCommand
import Testing

/// readline opened with dlopen: every function and setting it is reached through resolves, and
/// the settings written through the addresses are readline's own.
@Suite("readline loaded on first use")
struct ReadlineLoaderTests {
    @Test func resolvesEverySymbolAndConfigures() throws {
        let readline = try Readline.shared()
        #expect(Readline.soname == "libreadline.so.8")
        readline.configure(completion: readlineCompletion)
        #expect(String(cString: try #require(readline.readlineName.pointee)) == "cloudsync")
        #expect(String(cString: try #require(readline.completerWordBreakCharacters.pointee)) == " \t\n=")
        #expect(String(cString: try #require(readline.completerQuoteCharacters.pointee)) == "'\"")
        #expect(readline.catchSignals.pointee == 0 && readline.catchSigwinch.pointee == 0)
        #expect(readline.attemptedCompletionFunction.pointee != nil)
    }
}
