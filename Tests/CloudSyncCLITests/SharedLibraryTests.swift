@testable import CloudSyncCLI
import CloudSyncCore
import Glibc
import TestSupport
import Testing

/// `SharedLibrary` against real libraries (glibc's own), and the cloudsync binary's start-up
/// dependencies: the libraries it opens on first use must not be linked.
@Suite("Libraries loaded on first use")
struct SharedLibraryTests {
    typealias GetPID = @convention(c) () -> pid_t

    @Test func resolvesFunctionsAndVariables() throws {
        var libc = try SharedLibrary("libc.so.6", package: "libc6")
        let getpid = libc.function("getpid", as: GetPID.self)
        #expect(getpid?() == Glibc.getpid())
        let environ = libc.variable("environ", as: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self)
        #expect(environ?.pointee != nil)
        try libc.checkResolved()
        #expect(SharedLibrary.isLoaded("libc.so.6"))
    }

    @Test func missingLibraryAndSymbolsAreNamed() throws {
        #expect(!SharedLibrary.isLoaded("libcloudsync-absent.so.1"))
        do {
            _ = try SharedLibrary("libcloudsync-absent.so.1", package: "cloudsync-absent")
            Issue.record("opened a library that does not exist")
        } catch {
            guard case .cannotOpen(let name, _, let package) = error else { throw error }
            #expect(name == "libcloudsync-absent.so.1" && package == "cloudsync-absent")
            #expect(error.description.contains("install it (Debian: cloudsync-absent)"))
            #expect(error.cliError.exitCode == 69)
        }
        var libc = try SharedLibrary("libc.so.6", package: "libc6")
        let absent = libc.function("cloudsync_no_such_function", as: GetPID.self)
        #expect(absent == nil)
        #expect(throws: SharedLibraryError.missingSymbols("libc.so.6", ["cloudsync_no_such_function"])) {
            try libc.checkResolved()
        }
    }

    /// What `ldd` shows: libcrypto, readline (with libtinfo) and qrencode are opened by the
    /// commands that use them, so they are not among the libraries every process loads.
    @Test func binaryDoesNotLinkTheLibrariesItOpensOnFirstUse() {
        let home = TemporaryDirectory("startup-libs")
        let result = BinaryRunner(home: home.path).run(["--version"], env: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("libc.so.6"), "not the loader's listing: \(result.stdout)")
        for library in ["libcrypto", "libreadline", "libtinfo", "libqrencode"] {
            #expect(!result.stdout.contains(library), "\(library) is linked:\n\(result.stdout)")
        }
    }
}
