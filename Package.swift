// swift-tools-version:6.0
import PackageDescription

/// cloudsync: CloudKit-style sync for Linux. See docs/ARCHITECTURE.md for the layering:
/// executable -> CloudSyncCommands -> Commands/* -> CloudSyncSession -> CloudSyncCLI (the kit, Core only) /
/// CloudSyncIdentity (identity keys and messages) /
/// CloudSyncDevice -> CloudSyncService -> CloudSyncCore; the backends (CloudSyncSQLiteCloud,
/// CloudSyncPostgresCloud, HTTPCloud) sit under CloudSyncService and are registered by CloudSyncCommands.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "cloudsync",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "cloudsync", targets: ["cloudsync"]),
        .executable(name: "cloudsync-bench", targets: ["cloudsync-bench"]),
        .library(name: "CloudSyncCore", targets: ["CloudSyncCore"]),
        .library(name: "CloudSyncService", targets: ["CloudSyncService"]),
        .library(name: "CloudSyncSQLiteCloud", targets: ["CloudSyncSQLiteCloud"]),
        .library(name: "CloudSyncDevice", targets: ["CloudSyncDevice"]),
    ],
    targets: [
        // System C libraries (Debian -dev packages).
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),

        // Headers only (no pkg-config: its -lcrypto would link the library); see LibCrypto.
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),

        .systemLibrary(name: "CReadline", path: "Sources/CReadline", providers: [.apt(["libreadline-dev"])]),

        // Headers only, like CReadline: loaded with dlopen by the commands that draw QR codes.
        .systemLibrary(name: "CQREncode", path: "Sources/CQREncode", providers: [.apt(["libqrencode-dev"])]),

        // PostgreSQL (issue 11): libpq's headers only, opened with dlopen by CloudSyncPostgres.
        .systemLibrary(name: "CPostgres", path: "Sources/CPostgres", providers: [.apt(["libpq-dev"])]),

        // HTTP server (issue 12): libmicrohttpd's headers only, opened with dlopen by CloudSyncHTTPServer.
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // CloudKit Web Services (issue 12): libcurl's headers only, opened with dlopen by HTTPCloud.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // Compression (issue 28): zlib's headers only, opened with dlopen by CloudSyncHTTPServer's LibZ.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),

        // Layers.
        .target(name: "CloudSyncCore", swiftSettings: strict, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "CloudSyncSQLite", dependencies: ["CloudSyncCore", "CSQLite"], swiftSettings: strict),
        .target(name: "CloudSyncCrypto", dependencies: ["COpenSSL"], swiftSettings: strict),
        // PostgreSQL (issue 11): connections, statements, transactions, LISTEN/NOTIFY over libpq.
        .target(name: "CloudSyncPostgres", dependencies: ["CloudSyncCore", "CPostgres"], swiftSettings: strict),
        // HTTP server (issue 12): generic HTTP/HTTPS over libmicrohttpd, limits, graceful stop. No cloud knowledge.
        .target(name: "CloudSyncHTTPServer", dependencies: ["CloudSyncCore", "CMicroHTTPD", "CZlib"], swiftSettings: strict),
        // The service: CloudService, StorageBackedCloud (the rules over any CloudStorage), the storage
        // protocols and rows, the wrappers, and CloudLocator with the backends registered to it.
        .target(name: "CloudSyncService", dependencies: ["CloudSyncCore", "CloudSyncCrypto"], swiftSettings: strict),
        // The embedded cloud: StorageBackedCloud over one SQLite file (SQLiteCloud*), its notification
        // queue and wake-up files.
        .target(name: "CloudSyncSQLiteCloud", dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncSQLite"],
                swiftSettings: strict),
        // PostgreSQL (issue 11): `PostgresCloud`, the service over tables in PostgreSQL.
        .target(name: "CloudSyncPostgresCloud", dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncPostgres"],
                swiftSettings: strict),
        .target(name: "CloudSyncDevice",
                dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncSQLite", "CloudSyncCrypto"],
                swiftSettings: strict),
        // CloudKit Web Services (issue 12), in three: the protocol (endpoints, paths, codecs, the error
        // table), shared by both sides and knowing no HTTP stack;
        .target(name: "CloudSyncWebProtocol", dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncCrypto"],
                swiftSettings: strict),
        // the server side: the pure request handler of `cloudsync serve`, the authenticator, and the glue
        // to CloudSyncHTTPServer (its CloudKit-shaped refusals, which requests are long polls);
        .target(name: "CloudSyncWebServer",
                dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncCrypto", "CloudSyncWebProtocol", "CloudSyncHTTPServer"],
                swiftSettings: strict),
        // the client: HTTPCloud over libcurl. Commands reach a remote cloud through it, never through the server.
        .target(name: "CloudSyncWebClient", dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncWebProtocol", "CCurl"],
                swiftSettings: strict),
        // Identity keys and messages between accounts (issue 31): IdentityStore, IdentityKey, KeyPins,
        // MessageScheme, MessageOpener, over an IdentityContext (the cloud, the account, its data key)
        // that the session provides; no command-line knowledge.
        .target(name: "CloudSyncIdentity", dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncCrypto", "CloudSyncDevice"],
                swiftSettings: strict),
        // The CLI kit, with no cloud knowledge: command table types, parser, settings resolution,
        // help, output, exit codes, plugins, completion, REPL line handling.
        .target(name: "CloudSyncCLI", dependencies: ["CloudSyncCore"], swiftSettings: strict),
        // The documentation generated from the command table (issue 31): man pages (roff), the bash,
        // zsh and fish completion scripts, and the hidden `__generate-docs` that writes them (run by
        // the GenerateDocs plugin). Apart from the kit, so the kit's parser and help stay small.
        .target(name: "CloudSyncCLIDocs", dependencies: ["CloudSyncCLI"], swiftSettings: strict),
        // The session/sync layer over the kit: CloudSession, SyncVerb, CommandContext+Cloud/+PublicStore/+Sharing.
        .target(name: "CloudSyncSession",
                dependencies: ["CloudSyncCLI", "CloudSyncCore", "CloudSyncService", "CloudSyncSQLiteCloud", "CloudSyncDevice", "CloudSyncCrypto",
                               "CloudSyncWebClient", "CloudSyncIdentity"],
                swiftSettings: strict),

        // One module per command family.
        .target(name: "ZoneCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncService"], path: "Sources/Commands/Zone",
                swiftSettings: strict),
        .target(name: "RecordCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncService"], path: "Sources/Commands/Record",
                swiftSettings: strict),
        .target(name: "FetchChangesCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"],
                path: "Sources/Commands/FetchChanges", swiftSettings: strict),
        .target(name: "TourCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore"], path: "Sources/Commands/Tour",
                swiftSettings: strict),
        .target(name: "StoreCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"], path: "Sources/Commands/Store",
                swiftSettings: strict),
        .target(name: "KVCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"], path: "Sources/Commands/KV", swiftSettings: strict),
        .target(name: "KeysCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCrypto", "CloudSyncIdentity", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"], path: "Sources/Commands/Keys", swiftSettings: strict),
        .target(name: "MessageCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCrypto", "CloudSyncIdentity", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"], path: "Sources/Commands/Message",
                swiftSettings: strict),
        .target(name: "CloudSyncOTP", dependencies: ["CloudSyncCore", "CloudSyncCrypto", "CloudSyncDevice"], swiftSettings: strict),
        .target(name: "OTPCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncOTP", "CQREncode", "CloudSyncCore", "CloudSyncCrypto", "CloudSyncDevice"], path: "Sources/Commands/OTP",
                swiftSettings: strict),
        .target(name: "ReplCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CReadline", "CloudSyncCore"], path: "Sources/Commands/Repl",
                swiftSettings: strict),
        .target(name: "CloudCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncService"], path: "Sources/Commands/Cloud", swiftSettings: strict),
        .target(name: "SubscribeCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"], path: "Sources/Commands/Subscribe",
                swiftSettings: strict),
        .target(name: "SchemaCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncService"], path: "Sources/Commands/Schema",
                swiftSettings: strict),
        // Zone sharing (issue 18).
        .target(name: "ShareCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncService"], path: "Sources/Commands/Share", swiftSettings: strict),
        .target(name: "SyncCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"], path: "Sources/Commands/Sync",
                swiftSettings: strict),
        .target(name: "WhoamiCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCore", "CloudSyncDevice", "CloudSyncService"], path: "Sources/Commands/Whoami",
                swiftSettings: strict),

        // The console (issue 29): the single-page app `serve` answers at /console/ (HTML, CSS and
        // JavaScript held in Swift string literals), GET /metrics and the administrator's /admin/1/… calls.
        .target(name: "CloudSyncConsole", dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncHTTPServer", "CloudSyncWebProtocol",
                                                         "CloudSyncWebServer"],
                swiftSettings: strict),
        .target(name: "ServeCommand", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncHTTPServer", "CloudSyncWebProtocol",
                                                     "CloudSyncWebServer", "CloudSyncConsole", "CloudSyncPostgres", "CloudSyncPostgresCloud", "CloudSyncCore", "CloudSyncService"],
                path: "Sources/Commands/Serve", swiftSettings: strict),

        // The composition root: every command family registered, and the backends.
        .target(name: "CloudSyncCommands",
                dependencies: ["CloudSyncCLI", "CloudSyncCLIDocs", "CloudSyncSession", "CloudSyncDevice", "CloudSyncOTP", "CloudSyncService", "CloudSyncSQLiteCloud",
                               "CloudSyncPostgresCloud", "CloudSyncWebClient",
                               "ZoneCommand", "RecordCommand", "FetchChangesCommand", "TourCommand", "StoreCommand", "KVCommand", "KeysCommand",
                               "MessageCommand", "OTPCommand",
                               "ReplCommand", "SubscribeCommand", "SchemaCommand", "WhoamiCommand", "ServeCommand", "CloudCommand",
                               "ShareCommand", "SyncCommand"],
                swiftSettings: strict),
        // The command line for the Swift runtime, from glibc's constructor arguments instead of the
        // runtime's /proc/self/maps scan at every start (see process_arguments.c).
        .target(name: "CProcessArguments", path: "Sources/CProcessArguments"),
        .executableTarget(name: "cloudsync", dependencies: ["CloudSyncCommands", "CProcessArguments"], swiftSettings: strict),
        .executableTarget(name: "cloudsync-bench",
                          dependencies: ["CloudSyncCore", "CloudSyncService", "CloudSyncSQLiteCloud", "CloudSyncDevice", "CloudSyncSQLite"],
                          path: "Benchmarks/cloudsync-bench", swiftSettings: strict),
        // `scripts/bench-otp`: `cloudsync otp code` with 1,000 tokens against `oathtool --totp`.
        .executableTarget(name: "otp-bench", dependencies: ["CloudSyncCore"], path: "Benchmarks/otp-bench",
                          swiftSettings: strict),
        // What the process benchmarks share: a child read line by line, latency quantiles.
        .target(name: "BenchSupport", dependencies: ["CloudSyncCore"], path: "Benchmarks/BenchSupport",
                swiftSettings: strict),
        // `scripts/bench-subscribe`: notification latency from commit to `subscribe listen`, idle CPU.
        .executableTarget(name: "subscribe-bench", dependencies: ["BenchSupport", "CloudSyncCore", "CloudSyncService", "CloudSyncSQLiteCloud"],
                          path: "Benchmarks/subscribe-bench", swiftSettings: strict),
        // `scripts/bench-backend`: PostgresCloud (issue 11) and `cloudsync serve` (issue 12) vs the embedded cloud.
        .executableTarget(name: "backend-bench",
                          dependencies: ["BenchSupport", "CloudSyncCore", "CloudSyncService", "CloudSyncSQLiteCloud", "CloudSyncDevice",
                                         "CloudSyncPostgresCloud", "CloudSyncWebClient", "CloudSyncWebProtocol"],
                          path: "Benchmarks/backend-bench", swiftSettings: strict),

        // Tests: one target per module, plus shared helpers for running the built binary.
        .target(name: "TestSupport", dependencies: ["CloudSyncCore", "CloudSyncService"], path: "Tests/TestSupport",
                swiftSettings: strict),
        .testTarget(name: "CloudSyncCoreTests", dependencies: ["CloudSyncCore", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "CloudSyncSQLiteTests", dependencies: ["CloudSyncSQLite", "CloudSyncCore", "TestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "CloudSyncCryptoTests", dependencies: ["CloudSyncCrypto", "TestSupport"], swiftSettings: strict),
        // PostgreSQL (issue 11): against the cluster of scripts/with-postgres (CLOUDSYNC_TEST_POSTGRES_URL).
        .testTarget(name: "CloudSyncPostgresTests", dependencies: ["CloudSyncPostgres", "TestSupport"],
                    swiftSettings: strict),
        // HTTP server (issue 12): a real server on 127.0.0.1 driven by curl and raw sockets.
        .testTarget(name: "CloudSyncHTTPServerTests", dependencies: ["CloudSyncHTTPServer", "TestSupport", "CloudSyncCore"],
                    swiftSettings: strict),
        .testTarget(name: "CloudSyncOTPTests", dependencies: ["CloudSyncOTP", "CloudSyncCrypto", "TestSupport", "CloudSyncCore", "CloudSyncDevice"],
                    swiftSettings: strict),
        .testTarget(name: "OTPCommandTests",
                    dependencies: ["CloudSyncOTP", "CloudSyncCrypto", "OTPCommand", "CloudSyncCommands", "CloudSyncDevice",
                                   "CloudSyncCore", "TestSupport", "cloudsync", "CloudSyncCLI"],
                    swiftSettings: strict),
        // The service's rules: the conformance suite on every backend (SQLite, memory, PostgreSQL, HTTP).
        .testTarget(name: "CloudSyncServiceTests",
                    dependencies: ["CloudSyncService", "CloudSyncSQLiteCloud", "CloudSyncPostgresCloud", "CloudSyncWebProtocol",
                                   "CloudSyncWebServer", "CloudSyncWebClient", "CloudSyncHTTPServer", "CloudSyncDevice", "TestSupport", "CloudSyncCore", "CloudSyncPostgres"],
                    swiftSettings: strict),
        // The console's files, metrics labels and Prometheus text (issue 29), in-process.
        .testTarget(name: "CloudSyncConsoleTests", dependencies: ["CloudSyncConsole", "CloudSyncHTTPServer", "CloudSyncService"],
                    swiftSettings: strict),
        // CloudKit Web Services (issue 12). The codec against Apple's documented shapes and the reply bytes, with no server or client.
        .testTarget(name: "CloudSyncWebProtocolTests", dependencies: ["CloudSyncWebProtocol", "TestSupport", "CloudSyncCore", "CloudSyncService"],
                    swiftSettings: strict),
        // The server side alone: the CloudKit wording of the HTTP server's own refusals, byte for byte.
        .testTarget(name: "CloudSyncWebServerTests", dependencies: ["CloudSyncWebServer", "CloudSyncHTTPServer"],
                    swiftSettings: strict),
        // Both sides together: the handler over SQLite, HTTPCloud against it over loopback, Python clients.
        .testTarget(name: "CloudSyncWebServicesTests",
                    dependencies: ["CloudSyncWebProtocol", "CloudSyncWebServer", "CloudSyncWebClient", "CloudSyncHTTPServer",
                                   "CloudSyncService", "CloudSyncSQLiteCloud", "TestSupport", "CloudSyncCore"],
                    swiftSettings: strict),
        // The embedded cloud's file: format, upgrades, robustness.
        .testTarget(name: "CloudSyncSQLiteCloudTests", dependencies: ["CloudSyncSQLiteCloud", "CloudSyncService", "TestSupport", "CloudSyncCore"],
                    swiftSettings: strict),
        .testTarget(name: "CloudSyncDeviceTests", dependencies: ["CloudSyncDevice", "CloudSyncSQLiteCloud", "TestSupport", "CloudSyncCore", "CloudSyncSQLite", "CloudSyncService"],
                    swiftSettings: strict),
        .testTarget(name: "CloudSyncCLITests", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCommands", "TestSupport", "cloudsync", "CloudSyncCore"],
                    swiftSettings: strict),
        .testTarget(name: "ZoneCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "RecordCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "FetchChangesCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"],
                    swiftSettings: strict),
        .testTarget(name: "TourCommandTests", dependencies: ["TestSupport", "cloudsync"], swiftSettings: strict),
        .testTarget(name: "StoreCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "KVCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "MessageCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "ServeCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncPostgres", "CloudSyncCore"], swiftSettings: strict),
        // Several serve nodes behind HAProxy over a PostgreSQL primary and replica (scripts/cluster).
        .testTarget(name: "ClusterTests",
                    dependencies: ["CloudSyncService", "CloudSyncCore", "CloudSyncWebProtocol", "CloudSyncWebClient", "TestSupport", "cloudsync"],
                    swiftSettings: strict),
        // PostgreSQL (issue 11): the built binary with --cloud postgres://, on the scripts/with-postgres cluster.
        .testTarget(name: "PostgresCloudCommandTests",
                    dependencies: ["CloudSyncCore", "CloudSyncPostgres", "CloudSyncSQLite", "TestSupport", "cloudsync"],
                    swiftSettings: strict),
        .testTarget(name: "SubscribeCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "SchemaCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "ShareCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "SyncCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "WhoamiCommandTests", dependencies: ["TestSupport", "cloudsync", "CloudSyncCore"], swiftSettings: strict),
        .testTarget(name: "ReplTests", dependencies: ["CloudSyncCLI", "CloudSyncSession", "CloudSyncCommands", "ReplCommand", "TestSupport", "cloudsync", "CloudSyncCore"],
                    swiftSettings: strict),

        // README.md's blocks, pasted in order into a fresh home, do what the README says.
        .testTarget(name: "ReadmeTests", dependencies: ["CloudSyncCore", "TestSupport", "cloudsync"], swiftSettings: strict),

        // `swift package --allow-writing-to-package-directory generate-docs`: regenerates man/ and
        // completions/ from the command table by running the built tool's `__generate-docs`.
        .plugin(name: "GenerateDocs",
                capability: .command(intent: .custom(verb: "generate-docs",
                                                     description: "Regenerate man/ and completions/ from the command table"),
                                     permissions: [.writeToPackageDirectory(reason: "writes man/*.1 and completions/*")]),
                path: "Plugins/GenerateDocs"),
    ]
)
