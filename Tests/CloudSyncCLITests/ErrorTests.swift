import CloudSyncCLI
import CloudSyncCore
import Testing

@Suite struct ErrorTests {
    static let expected: [CloudError.Code: Int32] = [
        .unknownItem: 3, .zoneNotFound: 3, .userDeletedZone: 3,
        .serverRecordChanged: 4, .constraintViolation: 4,
        .invalidArguments: 65, .limitExceeded: 65, .serverRejectedRequest: 65,
        .networkUnavailable: 69, .networkFailure: 69, .serviceUnavailable: 69, .badDatabase: 69,
        .requestRateLimited: 75, .zoneBusy: 75,
        .permissionFailure: 77, .notAuthenticated: 77,
        .internalError: 70,
        .partialFailure: 1, .changeTokenExpired: 1, .quotaExceeded: 65, .batchRequestFailed: 1, .assetFileNotFound: 1,
    ]

    @Test func everyCloudErrorCodeHasAnExitCode() {
        for code in CloudError.Code.allCases {
            #expect(CloudError(code, "x").exitCode == Self.expected[code], "\(code)")
        }
    }

    @Test func aBusyServiceWithRetryAfterIsTryLaterNotUnavailable() {
        #expect(CloudError(.serviceUnavailable, "busy", retryAfter: 1).exitCode == 75)
        #expect(CloudError(.serviceUnavailable, "down").exitCode == 69)
    }

    @Test(arguments: CloudError.Code.allCases)
    func dispatcherMapsCloudErrors(code: CloudError.Code) {
        let home = TempDir()
        defer { home.remove() }
        let result = invoke(Toy.registry(), ["fail", "--cloud-code", code.rawValue], environment: baseEnvironment(home: home))
        #expect(result.status == Self.expected[code])
        #expect(result.stderr == "cloudsync: error: it went wrong: \(code.rawValue)\n")
    }

    @Test func cloudErrorAsJSON() throws {
        let home = TempDir()
        defer { home.remove() }
        let result = invoke(Toy.registry(), ["fail", "--cloud-code", "requestRateLimited", "--retry-after", "2.5", "--json"],
                            environment: baseEnvironment(home: home))
        #expect(result.status == 75)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == """
            {"error":{"ckErrorCode":"requestRateLimited","serverErrorCode":"THROTTLED","reason":"it went wrong: requestRateLimited","retryAfter":2.5}}

            """)
        let parsed = try JSONValue.parse(result.stderr)
        #expect(parsed["error"]?["serverErrorCode"]?.stringValue == "THROTTLED")
    }

    @Test func zoneNotFoundFromACommand() {
        let home = TempDir()
        defer { home.remove() }
        let human = invoke(Toy.registry(), ["zone", "delete", "Gone"], environment: baseEnvironment(home: home))
        #expect(human.status == 3)
        #expect(human.stderr == "cloudsync: error: zone 'Gone' does not exist\n")
        let json = invoke(Toy.registry(), ["--json", "zone", "delete", "Gone"], environment: baseEnvironment(home: home))
        #expect(json.status == 3)
        #expect(json.stderr.contains("\"serverErrorCode\":\"ZONE_NOT_FOUND\""))
    }

    @Test func cliErrorsMapToTheirCodes() {
        let home = TempDir()
        defer { home.remove() }
        let cases: [(String, Int32, String)] = [
            ("usage", 64, "cloudsync: error: bad usage\nusage: cloudsync fail"),
            ("badInput", 65, "cloudsync: error: bad input\n"),
            ("notFound", 3, "cloudsync: error: no such thing\n"),
            ("failed", 1, "cloudsync: error: it failed\n"),
        ]
        for (kind, status, prefix) in cases {
            let result = invoke(Toy.registry(), ["fail", "--cli", kind], environment: baseEnvironment(home: home))
            #expect(result.status == status, "\(kind)")
            #expect(result.stderr.hasPrefix(prefix), "\(kind): \(result.stderr)")
        }
        let silent = invoke(Toy.registry(), ["fail", "--cli", "exit"], environment: baseEnvironment(home: home))
        #expect(silent.status == 42)
        #expect(silent.stderr.isEmpty)
    }

    @Test func cliErrorJSONShape() throws {
        let home = TempDir()
        defer { home.remove() }
        let result = invoke(Toy.registry(), ["fail", "--cli", "notFound", "--json"], environment: baseEnvironment(home: home))
        #expect(result.status == 3)
        #expect(result.stderr == "{\"error\":{\"serverErrorCode\":\"NOT_FOUND\",\"reason\":\"no such thing\"}}\n")

        let usage = invoke(Toy.registry(), ["--json", "zone", "list", "--jsno"], environment: baseEnvironment(home: home))
        #expect(usage.status == 64)
        #expect(usage.stderr == "{\"error\":{\"serverErrorCode\":\"BAD_REQUEST\",\"reason\":\"unknown option '--jsno' Did you mean '--json'?\"}}\n")

        let unknown = invoke(Toy.registry(), ["--json", "zoen"], environment: baseEnvironment(home: home))
        #expect(unknown.status == 64)
        let document = try JSONValue.parse(unknown.stderr)
        #expect(document["error"]?["serverErrorCode"]?.stringValue == "BAD_REQUEST")
        #expect(document["error"]?["reason"]?.stringValue?.contains("'zoen' is not a cloudsync command") == true)
    }

    /// Scripts decode `serverErrorCode` like the cloud's: only Apple's 14 documented values.
    @Test func everyCLIErrorHasADocumentedServerErrorCode() {
        let documented: Set<String> = [
            "ACCESS_DENIED", "ATOMIC_ERROR", "AUTHENTICATION_FAILED", "AUTHENTICATION_REQUIRED", "BAD_REQUEST", "CONFLICT",
            "EXISTS", "INTERNAL_ERROR", "NOT_FOUND", "QUOTA_EXCEEDED", "THROTTLED", "TRY_AGAIN_LATER",
            "VALIDATING_REFERENCE_ERROR", "ZONE_NOT_FOUND",
        ]
        let errors: [CLIError] = [.usage("u"), .setting("s"), .badInput("b"), .notFound("n"), .conflict("c"), .failed("f"),
                                  .unavailable("a"), .tempFailure("t"), .permissionDenied("p"), .internalError("i"),
                                  .ioError("o"), .exit(42)]
        for error in errors {
            #expect(documented.contains(error.serverErrorCode), "\(error): \(error.serverErrorCode)")
        }
        #expect(CLIError.unavailable("a").serverErrorCode == "TRY_AGAIN_LATER")
        #expect(CLIError.ioError("o").serverErrorCode == "INTERNAL_ERROR")
    }

    @Test func otherErrorsAreInternal() {
        let home = TempDir()
        defer { home.remove() }
        let result = invoke(Toy.registry(), ["fail", "--swift"], environment: baseEnvironment(home: home))
        #expect(result.status == 70)
        #expect(result.stderr == "cloudsync: error: internal error: the toy broke\n")
        let json = invoke(Toy.registry(), ["fail", "--swift", "--json"], environment: baseEnvironment(home: home))
        #expect(json.stderr.contains("\"serverErrorCode\":\"INTERNAL_ERROR\""))
    }

    @Test func partialFailuresListEachItem() {
        let zone = ZoneID(zoneName: "Z", ownerRecordName: "_owner")
        let error = CloudError(.partialFailure, "2 records failed", partialErrors: [
            RecordID(recordName: "b", zoneID: zone): CloudError(.serverRecordChanged, "changed"),
            RecordID(recordName: "a", zoneID: zone): CloudError(.unknownItem, "missing"),
        ])
        let spec = CommandSpec(name: "push", abstract: "Push", run: { _, _ in throw error })
        var registry = CommandRegistry()
        registry.register(spec)
        let home = TempDir()
        defer { home.remove() }
        let result = invoke(registry, ["push"], environment: baseEnvironment(home: home))
        #expect(result.status == 1)
        #expect(result.stderr == """
            cloudsync: error: 2 records failed
              a: missing (unknownItem)
              b: changed (serverRecordChanged)

            """)
    }

    @Test func exitCodeRawValues() {
        #expect(ExitCode.allCases.map(\.rawValue) == [0, 1, 3, 4, 64, 65, 69, 70, 74, 75, 77])
        #expect(CLIError.usage("x").exitCode == 64)
        #expect(CLIError.conflict("x").exitCode == 4)
        #expect(CLIError.unavailable("x").exitCode == 69)
        #expect(CLIError.tempFailure("x").exitCode == 75)
        #expect(CLIError.permissionDenied("x").exitCode == 77)
        #expect(CLIError.internalError("x").exitCode == 70)
    }
}
