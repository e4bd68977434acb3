import CloudSyncCLI
import CloudSyncService
import CloudSyncCore

extension CloudSession {
    /// The cloud's user directory (issue 26); a cloud without one is unavailable (69).
    public func users() throws -> any UserDirectoryService {
        guard let service = capabilities.users else {
            throw CLIError.unavailable("this cloud does not offer user look-up")
        }
        return service
    }

    /// The user a key finds, nil when the directory does not know it (or it hides from that key).
    public func lookUpUser(_ key: UserLookupKey) throws -> DirectoryUser? {
        guard let result = try users().lookUpUsers([key], in: request(.public)).first else { return nil }
        switch result {
        case .success(let user): return user
        case .failure(let error):
            if error.code == .unknownItem { return nil }
            throw error
        }
    }
}
