import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// The `users/…` endpoints (issue 26): `users/caller`, `users/lookup/id` (Apple's) and the
/// extensions `users/lookup/account` and `users/caller/modify`, on any database path (Apple
/// documents the public one). Any signed-in account may use them: they act on the caller's
/// own profile, or answer what the directory lets anyone learn (`UserDirectoryService`).
extension WebServicesCall {
    func usersReply(to body: JSONValue) throws(CloudError) -> JSONValue {
        guard let directory = service.capabilities.users else {
            throw CloudError(.serviceUnavailable, "this cloud does not offer user look-up")
        }
        switch path.endpoint {
        case .usersLookupID, .usersLookupAccount:
            let keys = try UsersCodec.decodeLookup(body, member: path.endpoint == .usersLookupID ? "userRecordName" : "accountName")
            return UsersCodec.encodeLookupReply(keys, try directory.lookUpUsers(keys, in: database), uuid: uuid)
        case .usersCallerModify:
            return UsersCodec.encode(try directory.updateCallerProfile(try UsersCodec.decodeProfileUpdate(body), in: database))
        default:
            return UsersCodec.encode(try directory.callerIdentity(in: database))
        }
    }
}
