import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// The user directory over the `users/…` endpoints of `cloudsync serve` (issue 26), sent on
/// the public database's path as Apple documents them, always as the caller's own account.
extension HTTPCloud: UserDirectoryService {
    func usersCall(_ endpoint: WebServicesEndpoint, _ body: JSONValue, in request: DatabaseRequest) throws(CloudError) -> JSONValue {
        var database = request
        database.scope = .public
        database.sharedOwner = nil
        return try call(endpoint, body, in: database)
    }

    public func lookUpUsers(_ keys: [UserLookupKey], in request: DatabaseRequest) throws(CloudError) -> [Result<DirectoryUser, CloudError>] {
        guard keys.count <= UserDirectoryLimits.maxUsersPerLookup else {
            throw CloudError(.invalidArguments,
                             "a look-up names at most \(UserDirectoryLimits.maxUsersPerLookup) users, got \(keys.count); split it")
        }
        var out: [Result<DirectoryUser, CloudError>] = []
        // One request per kind of key, as the endpoints take one kind each; answers in the order asked.
        let byID = keys.filter { if case .userRecordName = $0 { true } else { false } }
        let byName = keys.filter { if case .accountName = $0 { true } else { false } }
        var answers: [UserLookupKey: Result<DirectoryUser, CloudError>] = [:]
        for (endpoint, part) in [(WebServicesEndpoint.usersLookupID, byID), (.usersLookupAccount, byName)] where !part.isEmpty {
            let reply = try usersCall(endpoint, UsersCodec.encodeLookup(part), in: request)
            for (key, result) in zip(part, try UsersCodec.decodeLookupReply(reply, count: part.count)) { answers[key] = result }
        }
        for key in keys {
            out.append(answers[key] ?? .failure(CloudError(.internalError, "the server did not answer every user asked")))
        }
        return out
    }

    public func callerIdentity(in request: DatabaseRequest) throws(CloudError) -> DirectoryUser {
        try UsersCodec.decode(try usersCall(.usersCaller, .object([]), in: request))
    }

    public func updateCallerProfile(_ update: UserProfileUpdate, in request: DatabaseRequest) throws(CloudError) -> DirectoryUser {
        try UsersCodec.decode(try usersCall(.usersCallerModify, UsersCodec.encodeProfileUpdate(update), in: request))
    }
}
