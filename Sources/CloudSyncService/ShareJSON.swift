import CloudSyncCore

/// The JSON of a share, as `cloudsync share … --json` prints it and the `shares/…` extension
/// endpoints of `cloudsync serve` carry it:
/// `{shareID, zoneID: {zoneName, ownerRecordName}, owner: {userRecordName, accountName},
/// title, publicPermission, url, participants: [{userRecordName, accountName, permission,
/// acceptanceStatus}], created, modified}` (times in ms since 1970; `accountName` null when
/// unknown; `permission` and `publicPermission` are `none`, `read-only` or `read-write`;
/// `acceptanceStatus` `pending` or `accepted`).
extension Share {
    public var json: JSONValue {
        .object([
            ("shareID", .string(shareID.recordName)),
            ("zoneID", RecordJSON.encode(zoneID: zoneID)),
            ("owner", .object([("userRecordName", .string(zoneID.ownerRecordName)),
                               ("accountName", ownerName.map(JSONValue.string) ?? .null)])),
            ("title", .string(title)),
            ("publicPermission", .string(publicPermission.rawValue)),
            ("url", .string(url)),
            ("participants", .array(participants.map { participant in
                .object([("userRecordName", .string(participant.userRecordName)),
                         ("accountName", participant.accountName.map(JSONValue.string) ?? .null),
                         ("permission", .string(participant.permission.rawValue)),
                         ("acceptanceStatus", .string(participant.acceptance.rawValue))])
            })),
            ("created", .int(created)),
            ("modified", .int(modified)),
        ])
    }

    /// Reads the JSON of `json`; anything malformed is `invalidArguments` naming the member.
    public init(json: JSONValue) throws(CloudError) {
        func bad(_ what: String) -> CloudError { CloudError(.invalidArguments, "a share's \(what) is missing or malformed") }
        guard let zoneJSON = json["zoneID"] else { throw bad("zoneID") }
        let zoneID = try RecordJSON.decodeZoneID(zoneJSON)
        guard let title = json["title"]?.stringValue else { throw bad("title") }
        guard let publicText = json["publicPermission"]?.stringValue, let publicPermission = SharePermission(rawValue: publicText) else {
            throw bad("publicPermission")
        }
        guard let url = json["url"]?.stringValue else { throw bad("url") }
        var participants: [ShareParticipant] = []
        for item in json["participants"]?.arrayValue ?? [] {
            guard let name = item["userRecordName"]?.stringValue,
                  let permission = item["permission"]?.stringValue.flatMap(SharePermission.init(rawValue:)),
                  let acceptance = item["acceptanceStatus"]?.stringValue.flatMap(ShareAcceptance.init(rawValue:)) else {
                throw bad("participant")
            }
            participants.append(ShareParticipant(userRecordName: name, accountName: item["accountName"]?.stringValue,
                                                 permission: permission, acceptance: acceptance))
        }
        self.init(zoneID: zoneID, ownerName: json["owner"]?["accountName"]?.stringValue, title: title,
                  publicPermission: publicPermission, url: url, participants: participants,
                  created: json["created"]?.int64Value ?? 0, modified: json["modified"]?.int64Value ?? 0)
    }
}
