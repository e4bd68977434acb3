import CloudSyncCore

/// The user directory (issue 26): look-up by userRecordName or login, and the caller's display
/// name and discoverability, kept per account in `user_profiles`.
extension StorageBackedCloud: UserDirectoryService {
    public func lookUpUsers(_ keys: [UserLookupKey], in request: DatabaseRequest) throws(CloudError) -> [Result<DirectoryUser, CloudError>] {
        guard keys.count <= UserDirectoryLimits.maxUsersPerLookup else {
            throw CloudError(.invalidArguments,
                             "a look-up names at most \(UserDirectoryLimits.maxUsersPerLookup) users, got \(keys.count); split it")
        }
        return try read { tx in
            try keys.map { key throws -> Result<DirectoryUser, CloudError> in
                guard let user = try directoryUser(key, caller: request.userRecordName, tx) else {
                    return .failure(Self.userNotFound(key))
                }
                return .success(user)
            }
        }
    }

    public func callerIdentity(in request: DatabaseRequest) throws(CloudError) -> DirectoryUser {
        try read { tx in try callerUser(request, tx) }
    }

    public func updateCallerProfile(_ update: UserProfileUpdate, in request: DatabaseRequest) throws(CloudError) -> DirectoryUser {
        for (what, value) in [("first name", update.firstName), ("last name", update.lastName)] {
            guard let value else { continue }
            guard value.utf8.count <= UserDirectoryLimits.maxNameBytes else {
                throw CloudError(.invalidArguments, "a \(what) is at most \(UserDirectoryLimits.maxNameBytes) bytes, got \(value.utf8.count)")
            }
            guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw CloudError(.invalidArguments, "a \(what) may not hold control characters")
            }
        }
        return try write { tx in
            guard let name = try tx.accountName(ofUserRecordName: request.userRecordName) else {
                throw CloudError(.notAuthenticated, "no account has the userRecordName \(request.userRecordName)")
            }
            var row = try tx.userProfile(account: name) ?? UserProfileRow(account: name)
            if let first = update.firstName { row.firstName = first }
            if let last = update.lastName { row.lastName = last }
            if let discoverable = update.discoverable { row.discoverable = discoverable }
            row.modified = clock()
            try tx.putUserProfile(row)
            return try callerUser(request, tx)
        }
    }

    /// The caller with its login and discoverability.
    func callerUser(_ request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws -> DirectoryUser {
        guard let name = try tx.accountName(ofUserRecordName: request.userRecordName) else {
            throw CloudError(.notAuthenticated, "no account has the userRecordName \(request.userRecordName)")
        }
        let profile = try tx.userProfile(account: name) ?? UserProfileRow(account: name)
        return Self.user(request.userRecordName, profile, login: true, discoverable: profile.discoverable)
    }

    /// The user a key finds for `caller`, nil when none (or a hidden account asked for by login).
    func directoryUser(_ key: UserLookupKey, caller: String, _ tx: any CloudStorageTransaction) throws -> DirectoryUser? {
        switch key {
        case .userRecordName(let userRecordName):
            guard let name = try tx.accountName(ofUserRecordName: userRecordName) else { return nil }
            let profile = try tx.userProfile(account: name) ?? UserProfileRow(account: name)
            return Self.user(userRecordName, profile, login: profile.discoverable || userRecordName == caller)
        case .accountName(let name):
            guard let userRecordName = try tx.userRecordName(ofAccount: name) else { return nil }
            let profile = try tx.userProfile(account: name) ?? UserProfileRow(account: name)
            guard profile.discoverable || userRecordName == caller else { return nil }
            return Self.user(userRecordName, profile, login: true)
        }
    }

    static func user(_ userRecordName: String, _ profile: UserProfileRow, login: Bool, discoverable: Bool? = nil) -> DirectoryUser {
        DirectoryUser(userRecordName: userRecordName, accountName: login ? profile.account : nil,
                      firstName: profile.firstName.isEmpty ? nil : profile.firstName,
                      lastName: profile.lastName.isEmpty ? nil : profile.lastName, discoverable: discoverable)
    }

    /// NOT_FOUND for a key; the same words whether the login does not exist or hides itself.
    static func userNotFound(_ key: UserLookupKey) -> CloudError {
        switch key {
        case .userRecordName(let name): CloudError(.unknownItem, "no user has the userRecordName \(NameRules.quoted(name))")
        case .accountName(let name):
            CloudError(.unknownItem, "no user \(NameRules.quoted(name)) can be found (no such account, or it is not discoverable)")
        }
    }
}
