import CloudSyncService
import CloudSyncCore

/// The user dictionaries of `users/caller`, `users/lookup/id` and `users/lookup/account`:
/// Apple's `{userRecordName, firstName, lastName}` with `nameComponents` (`givenName`,
/// `familyName`) as CloudKit JS's UserIdentity has them, and the extension members
/// `accountName` (the login, when the user may be found by it) and `discoverable` (the caller's
/// own only). A user not found is a per-user entry `{userRecordName | accountName,
/// serverErrorCode: NOT_FOUND, reason, ckErrorCode}`, as Apple answers unknown users.
package enum UsersCodec {
    /// The dictionary of a user.
    package static func encode(_ user: DirectoryUser) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("userRecordName", .string(user.userRecordName))]
        if let first = user.firstName { pairs.append(("firstName", .string(first))) }
        if let last = user.lastName { pairs.append(("lastName", .string(last))) }
        if user.firstName != nil || user.lastName != nil {
            var components: [(String, JSONValue)] = []
            if let first = user.firstName { components.append(("givenName", .string(first))) }
            if let last = user.lastName { components.append(("familyName", .string(last))) }
            pairs.append(("nameComponents", .object(components)))
        }
        if let login = user.accountName { pairs.append(("accountName", .string(login))) }
        if let discoverable = user.discoverable { pairs.append(("discoverable", .bool(discoverable))) }
        return .object(pairs)
    }

    /// A user from its dictionary.
    package static func decode(_ json: JSONValue) throws(CloudError) -> DirectoryUser {
        guard let userRecordName = json["userRecordName"]?.stringValue else {
            throw RecordsCodec.malformedReply("a user has no userRecordName")
        }
        return DirectoryUser(userRecordName: userRecordName, accountName: json["accountName"]?.stringValue,
                             firstName: json["firstName"]?.stringValue, lastName: json["lastName"]?.stringValue,
                             discoverable: json["discoverable"]?.boolValue)
    }

    /// The member a key is asked by.
    package static func member(_ key: UserLookupKey) -> (String, String) {
        switch key {
        case .userRecordName(let name): ("userRecordName", name)
        case .accountName(let name): ("accountName", name)
        }
    }

    /// `{users: [{userRecordName}]}` or `{users: [{accountName}]}`.
    package static func encodeLookup(_ keys: [UserLookupKey]) -> JSONValue {
        .object([("users", .array(keys.map { key in
            let (member, value) = member(key)
            return .object([(member, .string(value))])
        }))])
    }

    /// The keys of a look-up body; `member` is what each entry must give. More than
    /// `UserDirectoryLimits.maxUsersPerLookup` is BAD_REQUEST for the whole request.
    package static func decodeLookup(_ body: JSONValue, member: String) throws(CloudError) -> [UserLookupKey] {
        _ = try JSONFields.object(body, "the request")
        let items = try JSONFields.array(body, "users", required: true) ?? []
        guard items.count <= UserDirectoryLimits.maxUsersPerLookup else {
            throw CloudError(.invalidArguments,
                             "a look-up names at most \(UserDirectoryLimits.maxUsersPerLookup) users, got \(items.count); split it")
        }
        var keys: [UserLookupKey] = []
        for (index, item) in items.enumerated() {
            _ = try JSONFields.object(item, "users[\(index)]")
            guard let value = try JSONFields.string(item, member) else {
                throw JSONFields.bad("users[\(index)] needs '\(member)'")
            }
            keys.append(member == "accountName" ? .accountName(value) : .userRecordName(value))
        }
        return keys
    }

    /// `{users: [...]}`: each found user, or its NOT_FOUND entry, in the order asked.
    package static func encodeLookupReply(_ keys: [UserLookupKey], _ results: [Result<DirectoryUser, CloudError>], uuid: String) -> JSONValue {
        .object([("users", .array(zip(keys, results).map { key, result in
            switch result {
            case .success(let user): return encode(user)
            case .failure(let error):
                let (member, value) = member(key)
                return .object([(member, .string(value)), ("serverErrorCode", .string(error.code.serverErrorCode)),
                                ("reason", .string(error.reason)), ("uuid", .string(uuid)),
                                ("ckErrorCode", .string(error.code.rawValue))])
            }
        }))])
    }

    /// The results of a look-up reply, one per key asked.
    package static func decodeLookupReply(_ json: JSONValue, count: Int) throws(CloudError) -> [Result<DirectoryUser, CloudError>] {
        guard let items = json["users"]?.arrayValue, items.count == count else {
            throw RecordsCodec.malformedReply("users/lookup answered another number of users than asked")
        }
        var out: [Result<DirectoryUser, CloudError>] = []
        for item in items {
            if item["serverErrorCode"] != nil {
                out.append(.failure(WebServicesError.decode(item)))
            } else {
                out.append(.success(try decode(item)))
            }
        }
        return out
    }

    /// `{firstName?, lastName?, discoverable?}`.
    package static func decodeProfileUpdate(_ body: JSONValue) throws(CloudError) -> UserProfileUpdate {
        _ = try JSONFields.object(body, "the request")
        return UserProfileUpdate(firstName: try JSONFields.string(body, "firstName"), lastName: try JSONFields.string(body, "lastName"),
                                 discoverable: try JSONFields.bool(body, "discoverable"))
    }

    package static func encodeProfileUpdate(_ update: UserProfileUpdate) -> JSONValue {
        var pairs: [(String, JSONValue)] = []
        if let first = update.firstName { pairs.append(("firstName", .string(first))) }
        if let last = update.lastName { pairs.append(("lastName", .string(last))) }
        if let discoverable = update.discoverable { pairs.append(("discoverable", .bool(discoverable))) }
        return .object(pairs)
    }
}
