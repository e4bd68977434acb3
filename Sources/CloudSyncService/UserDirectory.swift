import CloudSyncCore

/// Users finding each other (issue 26), CloudKit's user discovery over this project's accounts:
/// look-up by userRecordName (`users/lookup/id`) or by account login (the extension
/// `users/lookup/account`, where Apple looks users up by email), each answering the user's
/// userRecordName and display name (`firstName`/`lastName`). `StorageBackedCloud` holds the rules for
/// every backend; `HTTPCloud` carries the calls to `cloudsync serve`.
///
/// Every signed-in account may look users up; a look-up creates nothing and reveals no private
/// data: a userRecordName, a display name, and the login only of an account that lets itself be
/// found by it (`discoverable`, the default). An account that is not discoverable is found only
/// by its userRecordName, and then without its login; looked up by login it is NOT_FOUND, exactly
/// as a login that does not exist.
public protocol UserDirectoryService: AnyObject, Sendable {
    /// One result per key, in order: the user, or `unknownItem` (NOT_FOUND). At most
    /// `UserDirectoryLimits.maxUsersPerLookup` keys (more is `invalidArguments`).
    func lookUpUsers(_ keys: [UserLookupKey], in request: DatabaseRequest) throws(CloudError) -> [Result<DirectoryUser, CloudError>]
    /// The caller as the directory shows it, with its login and discoverability.
    func callerIdentity(in request: DatabaseRequest) throws(CloudError) -> DirectoryUser
    /// Changes the caller's display name and discoverability (nil keeps a value; an empty name
    /// clears it). Returns the caller as `callerIdentity` does.
    func updateCallerProfile(_ update: UserProfileUpdate, in request: DatabaseRequest) throws(CloudError) -> DirectoryUser
}

/// The bounds of the user directory.
public enum UserDirectoryLimits {
    /// The most users one look-up names (more is a whole-request BAD_REQUEST).
    public static let maxUsersPerLookup = 100
    /// The longest first or last name, in UTF-8 bytes.
    public static let maxNameBytes = 200
}

/// Who a look-up asks for.
public enum UserLookupKey: Sendable, Hashable {
    /// By userRecordName (`_` and 32 hex digits): finds any account.
    case userRecordName(String)
    /// By account login: finds only a discoverable account (and the caller itself).
    case accountName(String)
}

/// A user as the directory shows it (Apple's user dictionary: `userRecordName`, `firstName`, `lastName`).
public struct DirectoryUser: Sendable, Hashable {
    public var userRecordName: String
    /// The login; nil for an account that is not discoverable (unless it is the caller).
    public var accountName: String?
    public var firstName: String?
    public var lastName: String?
    /// Whether look-up by login finds the account; known only for the caller (nil otherwise).
    public var discoverable: Bool?

    public init(userRecordName: String, accountName: String? = nil, firstName: String? = nil, lastName: String? = nil,
                discoverable: Bool? = nil) {
        self.userRecordName = userRecordName
        self.accountName = accountName
        self.firstName = firstName
        self.lastName = lastName
        self.discoverable = discoverable
    }

    /// "First Last", or nil when the user set no name.
    public var displayName: String? {
        let parts = [firstName, lastName].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    /// What a person is shown: the display name and the login ("Bob Builder (bob)"), whichever
    /// are known, else the userRecordName.
    public var label: String {
        switch (displayName, accountName) {
        case (let name?, let login?): "\(name) (\(login))"
        case (let name?, nil): name
        case (nil, let login?): login
        case (nil, nil): userRecordName
        }
    }
}

/// A change of the caller's profile; nil members keep their value.
public struct UserProfileUpdate: Sendable, Hashable {
    public var firstName: String?
    public var lastName: String?
    public var discoverable: Bool?

    public init(firstName: String? = nil, lastName: String? = nil, discoverable: Bool? = nil) {
        self.firstName = firstName
        self.lastName = lastName
        self.discoverable = discoverable
    }

    /// A display name as typed ("Bob Builder"): the first word is the first name, the rest the
    /// last name; an empty text clears both.
    public static func name(_ text: String) -> UserProfileUpdate {
        let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = trimmed.first else { return UserProfileUpdate(firstName: "", lastName: "") }
        return UserProfileUpdate(firstName: first, lastName: trimmed.dropFirst().joined(separator: " "))
    }
}

/// An account's profile as stored (table `user_profiles`); an account without a row has no
/// display name and is discoverable.
public struct UserProfileRow: Sendable, Hashable {
    /// The account's login.
    public var account: String
    public var firstName: String
    public var lastName: String
    public var discoverable: Bool
    /// Milliseconds since 1970.
    public var modified: Int64

    public init(account: String, firstName: String = "", lastName: String = "", discoverable: Bool = true, modified: Int64 = 0) {
        self.account = account
        self.firstName = firstName
        self.lastName = lastName
        self.discoverable = discoverable
        self.modified = modified
    }
}
