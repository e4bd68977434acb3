import CloudSyncCore
import TestSupport
import Testing

@Suite("cloudsync subscribe (end to end)")
struct SubscribeCommandTests {
    let home = TemporaryDirectory("subscribe-e2e")
    var cli: BinaryRunner { BinaryRunner(home: home.path) }

    func json(_ result: ProcessResult) throws -> JSONValue { try result.json() }

    @Test func createListReplaceAndDelete() throws {
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        let database = try json(cli.run(["--json", "subscribe", "create", "--database", "private", "--id", "private-changes"],
                                        device: "phone"))
        #expect(database["subscription"]?["subscriptionType"] == .string("database"))
        #expect(database["replaced"] == .bool(false))
        #expect(cli.run(["subscribe", "create", "--zone", "Notes", "--id", "notes"], device: "phone").status == 0)
        let query = cli.run(["subscribe", "create", "--query", "Note", "--where", "priority >= %@ AND tags CONTAINS %@",
                             "--arg", "3", "--arg", "work", "--fires-on", "create,update", "--once", "--alert", "Urgent",
                             "--desired-keys", "title,priority", "--id", "urgent"], device: "phone")
        #expect(query.status == 0)
        #expect(query.stdout.contains("created subscription urgent: query Note where priority >= 3 AND tags CONTAINS \"work\""))
        let generated = try json(cli.run(["--json", "subscribe", "create", "--query", "Post", "--database", "public"], device: "phone"))
        let generatedID = try #require(generated["subscription"]?["subscriptionID"]?.stringValue)
        #expect(generatedID.count == 36 && generatedID.split(separator: "-").count == 5, "a UUID, as CloudKit makes")

        var listed = try json(cli.run(["--json", "subscribe", "list"], device: "laptop"))["subscriptions"]?.arrayValue ?? []
        #expect(listed.compactMap { $0["subscriptionID"]?.stringValue } == ["notes", "private-changes", "urgent", generatedID])
        let urgent = try #require(listed.first { $0["subscriptionID"] == .string("urgent") })
        #expect(urgent["firesOn"] == .array([.string("create"), .string("update")]))
        #expect(urgent["firesOnce"] == .bool(true))
        #expect(urgent["notificationInfo"]?["alertBody"] == .string("Urgent"))
        #expect(urgent["notificationInfo"]?["desiredKeys"] == .array([.string("title"), .string("priority")]))
        #expect(listed.last?["databaseScope"] == .string("public"))
        let table = cli.run(["subscribe", "list", "--database", "private"], device: "phone")
        #expect(table.stdout.contains("private-changes  private   database  (whole database)"))
        #expect(!table.stdout.contains(generatedID))

        let replaced = try json(cli.run(["--json", "subscribe", "create", "--zone", "Notes", "--id", "urgent"], device: "phone"))
        #expect(replaced["replaced"] == .bool(true))
        #expect(replaced["subscription"]?["subscriptionType"] == .string("zone"))

        let deleted = try json(cli.run(["--json", "subscribe", "delete", "urgent", generatedID], device: "phone"))
        #expect(deleted["subscriptions"]?.arrayValue?.count == 2)
        #expect(deleted["subscriptions"]?.arrayValue?.allSatisfy { $0["deleted"] == .bool(true) } == true)
        listed = try json(cli.run(["--json", "subscribe", "list"], device: "phone"))["subscriptions"]?.arrayValue ?? []
        #expect(listed.compactMap { $0["subscriptionID"]?.stringValue } == ["notes", "private-changes"])
        // Another account sees none of them.
        let bob = cli.run(["--account", "bob", "--json", "subscribe", "list"], device: "phone")
        #expect(try json(bob)["subscriptions"] == .array([]))
    }

    @Test func badInputGivesOneLineErrorsWithTheDocumentedStatus() throws {
        #expect(cli.run(["zone", "create", "Notes"]).status == 0)
        let cases: [([String], Int32, String)] = [
            (["subscribe", "delete", "nope"], 3, "no subscription 'nope'"),
            (["subscribe", "delete", "nope", "--database", "public"], 3, "'nope'"),
            (["subscribe", "create", "--query", "Note", "--where", "title == 'x' AND"], 65, "column"),
            (["subscribe", "create", "--query", "Note", "--where", "title = %@"], 65, "argument"),
            (["subscribe", "create", "--query", "Note", "--fires-on", ""], 64, "fires-on"),
            (["subscribe", "create", "--query", "Note", "--fires-on", "create,explode"], 64, "explode"),
            (["subscribe", "create", "--query", "Note", "--fires-on", "create,"], 64, "empty item"),
            (["subscribe", "create", "--query", "Note", "--desired-keys", "a,b,c,d"], 65, "at most 3 desired keys"),
            (["subscribe", "create", "--query", "Note", "--desired-keys", "a,,b"], 64, "empty item"),
            (["subscribe", "create", "--zone", "Notes", "--database", "public"], 65, "only query subscriptions"),
            (["subscribe", "create", "--database", "public"], 65, "only query subscriptions"),
            (["subscribe", "create", "--zone", "Missing"], 3, "Missing"),
            (["subscribe", "create", "--zone", "_defaultZone"], 65, "_defaultZone"),
            (["subscribe", "create", "--database", "private", "--alert", "Hi"], 64, "--alert needs a query subscription"),
            (["subscribe", "create", "--query", "Note", "--silent", "--alert", "Hi"], 64, "not both"),
            (["subscribe", "create"], 64, "say what to subscribe to"),
            (["subscribe", "create", "--where", "x == 1", "--database", "private"], 64, "--where needs a query"),
            (["subscribe", "create", "--database", "galaxy"], 64, "galaxy"),
            (["subscribe", "listen", "--timeout", "soon"], 64, "--timeout"),
            (["subscribe", "init", "--database", "public"], 64, "public"),
        ]
        for (arguments, status, text) in cases {
            let result = cli.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)")
            // One error line (usage errors add the command's usage after it, as everywhere).
            let errors = result.stderr.split(separator: "\n").filter { $0.hasPrefix("cloudsync: error:") }
            #expect(errors.count == 1 && result.stderr.hasPrefix("cloudsync: error:"), "one line: \(result.stderr)")
        }
        let jsonError = cli.run(["--json", "subscribe", "delete", "nope"])
        #expect(try jsonError.errorJSON()["error"]?["serverErrorCode"] == .string("NOT_FOUND"))
        #expect(try json(cli.run(["--json", "subscribe", "list"]))["subscriptions"] == .array([]), "nothing was saved")
    }

    @Test func listenDeliversWaitingNotificationsWithTheDocumentedStatus() throws {
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "phone").status == 0)
        let nothing = cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone")
        #expect(nothing.status == 75)
        #expect(nothing.stderr.contains("no notification is waiting"))
        let timedOut = cli.run(["subscribe", "listen", "--once", "--timeout", "0.3"], device: "phone")
        #expect(timedOut.status == 75)
        #expect(timedOut.stderr.contains("within 0.3 s"))

        // A burst of changes on the laptop: one coalesced notification for the phone.
        for i in 0..<5 {
            #expect(cli.run(["record", "save", "Note", "n\(i)", "--zone", "Notes"], device: "laptop").status == 0)
        }
        let once = cli.run(["--json", "subscribe", "listen", "--once", "--timeout", "5"], device: "phone")
        #expect(once.status == 0)
        let lines = try once.ndjson()
        #expect(lines.count == 1)
        #expect(lines.first?["notificationType"] == .string("database"))
        #expect(lines.first?["subscriptionID"] == .string("db"))
        #expect(lines.first?["isSilent"] == .bool(true))
        #expect(cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone").status == 75, "reading acknowledged it")

        // The laptop made the change: it gets nothing even when registered.
        #expect(cli.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "again", "--zone", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "listen", "--timeout", "0"], device: "laptop").status == 75)
        let text = cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone")
        #expect(text.status == 0)
        #expect(text.stdout == "[private] database changed (subscription db)\n")
    }

    @Test func queryNotificationsCarryTheRecordReasonAndDesiredKeys() throws {
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "create", "--query", "Note", "--where", "priority > 3", "--zone", "Notes",
                         "--desired-keys", "title", "--alert", "Urgent note", "--id", "urgent", "--fires-on", "create,delete"],
                        device: "phone").status == 0)
        #expect(cli.run(["record", "save", "Note", "low", "--zone", "Notes", "--field", "priority:INT64=1"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Task", "t", "--zone", "Notes", "--field", "priority:INT64=9"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "hot", "--zone", "Notes", "--field", "priority:INT64=5",
                         "--field", "title=Call Bob"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "hot", "--zone", "Notes", "--field", "priority:INT64=6",
                         "--policy", "changed-keys"], device: "laptop").status == 0, "an update: not in --fires-on")
        #expect(cli.run(["record", "delete", "hot", "--zone", "Notes"], device: "laptop").status == 0)
        let result = cli.run(["--json", "subscribe", "listen", "--timeout", "0"], device: "phone")
        #expect(result.status == 0)
        let lines = try result.ndjson()
        #expect(lines.map { $0["queryNotificationReason"]?.stringValue } == ["recordCreated", "recordDeleted"])
        #expect(lines.allSatisfy { $0["recordName"] == .string("hot") && $0["recordType"] == .string("Note") })
        #expect(lines.first?["recordFields"]?["title"]?["value"] == .string("Call Bob"))
        #expect(lines.first?["alertBody"] == .string("Urgent note"))
        #expect(lines.first?["zoneID"]?["zoneName"] == .string("Notes"))
        #expect(cli.run(["record", "save", "Note", "hot2", "--zone", "Notes", "--field", "priority:INT64=8",
                         "--field", "title=Again"], device: "laptop").status == 0)
        let text = cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone")
        #expect(text.stdout == "[private] Note hot2 created in Notes (subscription urgent) title=Again: Urgent note\n")
    }

    /// Seed 001 end to end in two processes: the phone listens and fetches when woken; the
    /// laptop saves a note.
    @Test func listenerOnThePhoneFetchesWhatTheLaptopSaved() throws {
        #expect(cli.run(["subscribe", "init", "--zone", "Notes"], device: "phone").status == 0)
        let fetched = home.file("fetched.ndjson")
        let seen = home.file("seen.txt")
        let listener = BackgroundProcess(
            cli, ["--json", "subscribe", "listen", "--once", "--timeout", "60", "--exec",
                  "printf '%s %s %s\\n' \"$CLOUDSYNC_NOTIFICATION_TYPE\" \"$CLOUDSYNC_SUBSCRIPTION_ID\" \"$CLOUDSYNC_DEVICE\" > '\(seen)'; "
                  + "cloudsync --json fetch-changes > '\(fetched)'"],
            device: "phone", stdout: home.file("listener.out"), stderr: home.file("listener.err"))
        // The phone registered when it subscribed; give the listener a moment to start waiting.
        sleepSeconds(0.5)
        #expect(BackgroundProcess.read(listener.stdoutPath).isEmpty, "nothing happened yet")
        #expect(cli.run(["record", "save", "Note", "hello", "--zone", "Notes", "--field", "title=From the laptop"],
                        device: "laptop").status == 0)
        let status = listener.wait(seconds: 60)
        #expect(status == 0, "stderr: \(BackgroundProcess.read(listener.stderrPath))")
        let printed = try JSONValue.parse(BackgroundProcess.read(listener.stdoutPath).split(separator: "\n").first.map(String.init) ?? "")
        #expect(printed["notificationType"] == .string("database"))
        #expect(printed["subscriptionID"] == .string("private-changes"))
        #expect(BackgroundProcess.read(seen) == "database private-changes phone\n")
        let events = try BackgroundProcess.read(fetched).split(separator: "\n").map { try JSONValue.parse(String($0)) }
        let changed = events.filter { $0["event"] == .string("changed") }
        #expect(changed.map { $0["record"]?["recordName"]?.stringValue } == ["hello"])
        #expect(changed.first?["record"]?["fields"]?["title"]?["value"] == .string("From the laptop"))
    }

    /// A long-running listener prints each of several changes as it comes.
    @Test func aRunningListenerPrintsEachNotificationAsItArrives() throws {
        #expect(cli.run(["zone", "create", "Notes"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "create", "--query", "Note", "--id", "notes"], device: "phone").status == 0)
        let listener = BackgroundProcess(cli, ["--json", "subscribe", "listen", "--timeout", "3"], device: "phone",
                                         stdout: home.file("out"), stderr: home.file("err"))
        for i in 1...3 {
            #expect(cli.run(["record", "save", "Note", "n\(i)", "--zone", "Notes"], device: "laptop").status == 0)
            #expect(BackgroundProcess.waitForText("\"n\(i)\"", in: listener.stdoutPath, seconds: 20), "n\(i) printed")
        }
        #expect(listener.wait(seconds: 30) == 0, "idle timeout after notifications: status 0")
        let names = BackgroundProcess.read(listener.stdoutPath).split(separator: "\n")
            .compactMap { try? JSONValue.parse(String($0))["recordName"]?.stringValue }
        #expect(names == ["n1", "n2", "n3"])
    }

    @Test func onceWithAFailingCommandExitsWithItsStatus() throws {
        #expect(cli.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "phone").status == 0)
        #expect(cli.run(["record", "save", "Note", "a"], device: "laptop").status == 0)
        #expect(cli.run(["record", "save", "Note", "b", "--database", "public"], device: "laptop").status == 0)
        let failed = cli.run(["subscribe", "listen", "--once", "--timeout", "5", "--exec", "echo from-the-command; exit 7"],
                             device: "phone")
        #expect(failed.status == 7)
        #expect(failed.stdout == "[private] database changed (subscription db)\n", "the command's output goes to stderr")
        #expect(failed.stderr.contains("from-the-command"))
    }

    @Test func initIsDoneOnceAndRepairedWhenTheCloudLostThings() throws {
        let first = try json(cli.run(["--json", "subscribe", "init", "--zone", "Notes"], device: "phone"))
        #expect(first["createdZones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("Notes")])
        #expect(first["createdSubscriptions"]?.arrayValue?.compactMap { $0["subscriptionID"]?.stringValue }
                == ["private-changes", "shared-changes"])
        #expect(first["requests"] == .int(3))

        // A routine run sends no request at all.
        let log = home.file("calls.log")
        let again = cli.run(["--json", "subscribe", "init", "--zone", "Notes"], device: "phone", env: ["CLOUDSYNC_CALL_LOG": log])
        #expect(again.status == 0)
        #expect(try json(again)["upToDate"] == .bool(true))
        #expect(try json(again)["requests"] == .int(0))
        #expect(BackgroundProcess.read(log).isEmpty, "no cloud call: \(BackgroundProcess.read(log))")

        // The cloud loses the zone (user purge) and a subscription (deleted elsewhere).
        #expect(cli.run(["zone", "delete", "Notes", "--purge", "--yes"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "delete", "private-changes"], device: "laptop").status == 0)
        #expect(try json(cli.run(["--json", "subscribe", "init", "--zone", "Notes"], device: "phone"))["requests"] == .int(0))
        let repaired = try json(cli.run(["--json", "subscribe", "init", "--zone", "Notes", "--verify"], device: "phone"))
        #expect(repaired["createdZones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("Notes")])
        #expect(repaired["createdSubscriptions"]?.arrayValue?.compactMap { $0["subscriptionID"]?.stringValue } == ["private-changes"])
        let zones = try json(cli.run(["--json", "zone", "list"], device: "laptop"))["zones"]?.arrayValue ?? []
        #expect(zones.contains { $0["zoneID"]?["zoneName"] == .string("Notes") })
        let verified = cli.run(["subscribe", "init", "--zone", "Notes", "--verify"], device: "phone")
        #expect(verified.stdout.contains("Verified"))
        // A new zone for the app is created on the next routine run, and only that.
        let more = try json(cli.run(["--json", "subscribe", "init", "--zone", "Notes", "--zone", "Photos"], device: "phone"))
        #expect(more["createdZones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("Photos")])
        #expect(more["requests"] == .int(1))
    }

    @Test func unregisteredDevicesReceiveNothing() throws {
        #expect(cli.run(["subscribe", "create", "--database", "private", "--id", "db"], device: "phone").status == 0)
        #expect(cli.run(["record", "save", "Note", "a"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "unregister"], device: "phone").status == 0)
        #expect(cli.run(["record", "save", "Note", "b"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone").status == 75,
                "listening registers again, but what was dropped stays dropped")
        #expect(cli.run(["record", "save", "Note", "c"], device: "laptop").status == 0)
        #expect(cli.run(["subscribe", "listen", "--timeout", "0"], device: "phone").status == 0)
    }
}
