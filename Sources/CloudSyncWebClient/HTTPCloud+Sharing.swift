import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// Zone sharing over the `shares/…` extension endpoints of `cloudsync serve` (issue 18).
extension HTTPCloud: SharingService {
    func shareCall(_ endpoint: WebServicesEndpoint, _ body: JSONValue, in request: DatabaseRequest,
                   scope: DatabaseScope) throws(CloudError) -> JSONValue {
        var database = request
        database.scope = scope
        if scope != .shared { database.sharedOwner = nil }
        return try call(endpoint, body, in: database)
    }

    func decodeShare(_ json: JSONValue) throws(CloudError) -> Share {
        do {
            return try Share(json: json)
        } catch {
            throw RecordsCodec.malformedReply(error.reason)
        }
    }

    func decodeShares(_ json: JSONValue) throws(CloudError) -> [Share] {
        var out: [Share] = []
        for item in json["shares"]?.arrayValue ?? [] { out.append(try decodeShare(item)) }
        return out
    }

    public func saveShare(zoneName: String, title: String?, publicPermission: SharePermission?,
                          in request: DatabaseRequest) throws(CloudError) -> Share {
        var pairs: [(String, JSONValue)] = [("zoneName", .string(zoneName))]
        if let title { pairs.append(("title", .string(title))) }
        if let publicPermission { pairs.append(("publicPermission", .string(publicPermission.rawValue))) }
        return try decodeShare(try shareCall(.sharesModify, .object(pairs), in: request, scope: request.scope))
    }

    public func addParticipants(_ accounts: [String], permission: SharePermission, zoneName: String,
                                in request: DatabaseRequest) throws(CloudError) -> Share {
        let body = JSONValue.object([("zoneName", .string(zoneName)), ("add", .array(accounts.map(JSONValue.string))),
                                     ("permission", .string(permission.rawValue))])
        return try decodeShare(try shareCall(.sharesParticipants, body, in: request, scope: request.scope))
    }

    public func removeParticipants(_ accounts: [String], zoneName: String, in request: DatabaseRequest) throws(CloudError) -> Share {
        let body = JSONValue.object([("zoneName", .string(zoneName)), ("remove", .array(accounts.map(JSONValue.string)))])
        return try decodeShare(try shareCall(.sharesParticipants, body, in: request, scope: request.scope))
    }

    public func deleteShare(zoneName: String, in request: DatabaseRequest) throws(CloudError) {
        _ = try shareCall(.sharesDelete, .object([("zoneName", .string(zoneName))]), in: request, scope: request.scope)
    }

    public func ownedShares(zoneName: String?, in request: DatabaseRequest) throws(CloudError) -> [Share] {
        let body = JSONValue.object(zoneName.map { [("zoneName", JSONValue.string($0))] } ?? [])
        return try decodeShares(try shareCall(.sharesList, body, in: request, scope: request.scope))
    }

    public func acceptShare(url: String, in request: DatabaseRequest) throws(CloudError) -> Share {
        try decodeShare(try shareCall(.sharesAccept, .object([("url", .string(url))]), in: request, scope: .shared))
    }

    public func leaveShare(zoneName: String, in request: DatabaseRequest) throws(CloudError) {
        let zoneID = ZoneID(zoneName: zoneName, ownerRecordName: request.sharedOwner ?? "")
        _ = try shareCall(.sharesLeave, .object([("zoneID", RecordJSON.encode(zoneID: zoneID))]), in: request, scope: .shared)
    }

    public func acceptedShares(zoneName: String?, in request: DatabaseRequest) throws(CloudError) -> [Share] {
        let body = JSONValue.object(zoneName.map { [("zoneName", JSONValue.string($0))] } ?? [])
        var database = request
        database.sharedOwner = nil
        return try decodeShares(try shareCall(.sharesList, body, in: database, scope: .shared))
    }

    public func userRecordName(ofAccount name: String, in request: DatabaseRequest) throws(CloudError) -> String? {
        let reply = try shareCall(.sharesUser, .object([("accountName", .string(name))]), in: request, scope: .private)
        return reply["userRecordName"]?.stringValue
    }
}
