import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// The `shares/…` extension endpoints (issue 18): the `SharingService` calls, with
/// `Share.json` in replies. Owner calls go through the private path, participant calls
/// (`accept`, `leave`, and `list` of accepted shares) through the shared path.
extension WebServicesCall {
    func sharesReply(to body: JSONValue, in database: DatabaseRequest) throws(CloudError) -> JSONValue {
        guard let sharing = service.capabilities.sharing else {
            throw CloudError(.serviceUnavailable, "this cloud does not offer sharing")
        }
        _ = try JSONFields.object(body, "the request")
        // Owner calls on another path are refused by the service's own rule.
        let participants: Set<WebServicesEndpoint> = [.sharesAccept, .sharesLeave]
        if participants.contains(path.endpoint), path.scope != .shared {
            throw CloudError(.badDatabase, "\(path.endpoint.rawValue) goes through the shared database (the participant's)")
        }
        switch path.endpoint {
        case .sharesModify:
            let zoneName = try JSONFields.string(body, "zoneName", required: true) ?? ""
            let permission = try JSONFields.string(body, "publicPermission").map(Self.permission)
            return try sharing.saveShare(zoneName: zoneName, title: try JSONFields.string(body, "title"),
                                         publicPermission: permission, in: database).json
        case .sharesParticipants:
            let zoneName = try JSONFields.string(body, "zoneName", required: true) ?? ""
            if let removed = try JSONFields.array(body, "remove") {
                return try sharing.removeParticipants(try Self.names(removed), zoneName: zoneName, in: database).json
            }
            let added = try Self.names(try JSONFields.array(body, "add", required: true) ?? [])
            let permission = try Self.permission(try JSONFields.string(body, "permission") ?? SharePermission.readOnly.rawValue)
            return try sharing.addParticipants(added, permission: permission, zoneName: zoneName, in: database).json
        case .sharesDelete:
            try sharing.deleteShare(zoneName: try JSONFields.string(body, "zoneName", required: true) ?? "", in: database)
            return .object([("deleted", .bool(true))])
        case .sharesList:
            let zoneName = try JSONFields.string(body, "zoneName")
            let shares = path.scope == .shared ? try sharing.acceptedShares(zoneName: zoneName, in: database)
                : try sharing.ownedShares(zoneName: zoneName, in: database)
            return .object([("shares", .array(shares.map(\.json)))])
        case .sharesAccept:
            return try sharing.acceptShare(url: try JSONFields.string(body, "url", required: true) ?? "", in: database).json
        case .sharesLeave:
            guard let zoneID = try JSONFields.zoneID(body) else { throw JSONFields.bad("'zoneID' is required") }
            try sharing.leaveShare(zoneName: zoneID.zoneName, in: database.owned(by: zoneID.ownerRecordName))
            return .object([("left", .bool(true))])
        default:
            let name = try JSONFields.string(body, "accountName", required: true) ?? ""
            return .object([("userRecordName", try sharing.userRecordName(ofAccount: name, in: database).map(JSONValue.string) ?? .null)])
        }
    }

    static func permission(_ text: String) throws(CloudError) -> SharePermission {
        guard let permission = SharePermission(argument: text) else {
            throw JSONFields.bad("unknown permission \(NameRules.quoted(text)); use none, read-only or read-write")
        }
        return permission
    }

    static func names(_ items: [JSONValue]) throws(CloudError) -> [String] {
        var out: [String] = []
        for item in items {
            guard let name = item.stringValue else { throw JSONFields.bad("account names must be strings, got \(item.kindName)") }
            out.append(name)
        }
        return out
    }
}
