import CloudSyncCore

/// Runs `body` and returns the CloudError it throws, or nil (another error comes back as an
/// `internalError` holding its description).
public func cloudError(_ body: () throws -> Void) -> CloudError? {
    do { try body() } catch let error as CloudError { return error } catch { return CloudError(.internalError, "\(error)") }
    return nil
}
