import CloudSyncCLI
import CloudSyncSession
import CloudSyncService
import CloudSyncCore
#if canImport(Glibc)
import Glibc
#endif

/// `cloudsync record save TYPE [NAME]`.
enum RecordSave {
    static let spec = CommandSpec(
        name: "save", abstract: "Create or update a record.",
        discussion: """
            Without --change-tag, saving over an existing record fails with a conflict (exit 4) that \
            shows the server's change tag; pass it back with --change-tag, or choose another \
            --policy: changed-keys overwrites only the given fields, all-keys replaces the record.
            """,
        options: [
            FieldOptions.option(help: "A field (repeatable)."),
            OptionSpec("fields-json", value: "FILE", help: "Fields as a JSON object {name: {value, type}}; - for stdin.",
                       completion: .file),
            RecordCommand.zoneOption,
            OptionSpec("change-tag", value: "TAG", help: "The change tag of the version being replaced."),
            OptionSpec("policy", value: "POLICY", help: "if-unchanged (default), changed-keys or all-keys.",
                       completion: .values(["if-unchanged", "changed-keys", "all-keys"])),
            RecordCommand.databaseOption, SharedOwnerOption.option,
        ],
        arguments: [ArgumentSpec("type", help: "Record type.", completion: .recordType),
                    ArgumentSpec("name", help: "Record name (default: a new random name).", optional: true,
                                 completion: .recordName)],
        examples: [Example("cloudsync record save Note n1 --field title=Hi --field tags:STRING_LIST=a,b", "Save a record."),
                   Example("echo '{\"n\":{\"value\":1,\"type\":\"INT64\"}}' | cloudsync record save Note n2 --fields-json -",
                           "Fields from JSON."),
                   Example("cloudsync record save Photo p1 --field image:ASSETID=@photo.jpg --field body=@notes.txt",
                           "Values from files: an asset is uploaded, a text file becomes a STRING.")],
        jsonOutput: RecordJSONOutput.save,
        run: run)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let policyText = arguments.value("policy") ?? "if-unchanged"
        guard let policy = SavePolicy(argument: policyText) else {
            throw CLIError.usage("unknown save policy '\(policyText)'; use if-unchanged, changed-keys or all-keys")
        }
        guard let type = arguments.argument("type") else { throw CLIError.usage("a record type is required") }
        try NameRules.validateIdentifier(type, kind: "record type")
        guard arguments.argument("name") != nil || !arguments.values("field").isEmpty
                || arguments.value("fields-json") != nil else {
            throw CLIError.usage("record save needs a record name or a field (--field NAME=VALUE or --fields-json); an empty record with a random name is rarely meant")
        }
        let session = try context.session()
        let request = try context.databaseRequest(arguments, session: session, writing: true, ownerRequired: true)
        let zone = request.zoneID(arguments.value("zone") ?? ZoneID.defaultZoneName)
        let name = arguments.argument("name") ?? randomRecordName()
        try NameRules.validateRecordName(name)
        var fields: [String: FieldValue] = [:]
        if let source = arguments.value("fields-json") {
            let text = try readInput(source)
            let json: JSONValue
            do { json = try JSONValue.parse(text) } catch { throw CLIError.badInput("--fields-json: \(error)") }
            fields = try RecordJSON.decodeFields(json)
        }
        let parsed = try FieldOptions.parse(arguments, defaultZone: zone)
        let uploads = parsed.filter(\.isAssetContents).compactMap { field -> [UInt8]? in
            if case .bytes(let contents) = field.value { return contents }
            return nil
        }
        var assets = uploads.isEmpty ? [] : try session.cloud.uploadAssets(uploads, in: request)[...]
        for field in parsed {
            if field.isAssetContents, let reference = assets.popFirst() {
                fields[field.name] = .asset(reference)
            } else {
                fields[field.name] = field.value
            }
        }
        for warning in NameHints.newNameWarnings(type: type, fields: fields.keys.sorted(), session: session) {
            context.output.warning(.text(warning))
        }
        var record = Record(recordID: RecordID(recordName: name, zoneID: zone), recordType: type, fields: fields)
        if let tag = arguments.value("change-tag") {
            let stamp = ChangeStamp(timestamp: 0, userRecordName: "", deviceID: "")
            record.system = SystemFields(changeTag: tag, created: stamp, modified: stamp)
        }
        let result = try NameHints.suggestingZone(zone.zoneName, session: session, request: request) {
            try session.cloud.modifyRecords(ModifyRequest(saves: [record], policy: policy), in: request)
        }
        if var failure = result.partialFailure {
            // The one record's zone does not exist: say so with the nearest zone (`--zone notes`).
            if failure.code == .zoneNotFound, let hint = NameHints.zone(zone.zoneName, session: session, request: request) {
                failure.reason += "\n" + hint
            }
            throw failure
        }
        guard let saved = result.saved.first else { throw CLIError.failed("the cloud saved nothing") }
        if context.output.isJSON {
            context.output.json(RecordJSON.encode(saved))
        } else {
            context.output.line("saved \(saved.recordID.recordName) (\(saved.recordType)) in \(saved.recordID.zoneID.zoneName), change tag \(saved.changeTag ?? "")")
        }
    }

    /// A random record name: 32 hex digits in UUID layout.
    static func randomRecordName() -> String {
        var rng = SystemRandomNumberGenerator()
        let hex = (0..<16).map { _ -> String in
            let byte = UInt8.random(in: 0...255, using: &rng)
            return String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
        }.joined().uppercased()
        let c = Array(hex)
        return String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
    }

    /// Reads a whole file, or stdin for `-`, refusing more than 16 MB.
    static func readInput(_ source: String) throws -> String {
        let limit = 16 << 20
        let fd: Int32 = source == "-" ? 0 : open(source, O_RDONLY)
        guard fd >= 0 else {
            throw CLIError.badInput("cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 { throw CLIError.badInput("cannot read \(source): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if bytes.count > limit { throw CLIError.badInput("\(source) is larger than 16 MB") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.badInput("\(source) is not UTF-8 text")
        }
        return text
    }
}
