import CloudSyncCore

/// Runs `body` and returns the CloudError it throws, or nil.
public func cloudError(_ body: () throws -> Void) -> CloudError? {
    do { try body() } catch let error as CloudError { return error } catch { return CloudError(.internalError, "\(error)") }
    return nil
}
