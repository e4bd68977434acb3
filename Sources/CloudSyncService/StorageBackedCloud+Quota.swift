import CloudSyncCore

/// The storage quota per account (issue 25, item 7). Every write keeps a ledger of the bytes each
/// account's data takes (`account_usage`): a record's stored fields text and each asset's bytes,
/// charged to the account that pays for the database: the owner of a private database (also for
/// what participants save in its shared zones), the creator in the public database. With a quota
/// set (`serve --quota-bytes`), a call that would grow an account past it is refused whole with
/// `quotaExceeded` (QUOTA_EXCEEDED, exit 65); calls that free space (deletes) always go through,
/// and reads never look at it.
extension StorageBackedCloud {
    /// Sets the quota of every account, in bytes; nil (or 0) for none.
    public func setQuota(bytes: Int64?) {
        quota.store(max(bytes ?? 0, 0), ordering: .relaxed)
    }

    /// The quota of every account in bytes, or nil for none.
    public var quotaBytes: Int64? {
        let bytes = quota.load(ordering: .relaxed)
        return bytes > 0 ? bytes : nil
    }

    /// The bytes the data `request`'s caller pays for takes, as the ledger counts them.
    public func usage(in request: DatabaseRequest) throws(CloudError) -> Int64 {
        try read { tx in try tx.usage(payer: Self.payer(of: request)) }
    }

    /// Who pays for what is written through `request`: the caller in the public database, the
    /// owner of the private database otherwise (a participant's call reaches it as its owner view).
    static func payer(of request: DatabaseRequest) -> String {
        request.scope == .public ? request.userRecordName : request.sharedOwner ?? request.userRecordName
    }

    /// The stored size of a record's fields, as the ledger counts it.
    static func storedBytes(_ stored: StoredRecord) -> Int64 {
        Int64((stored.fieldsText ?? RecordJSON.fieldsText(stored.record.fields)).utf8.count)
    }

    /// Adds `bytes` to the payer's ledger inside the writing transaction; throws `quotaExceeded`
    /// (undoing the whole call) when growth takes the payer past the quota.
    func charge(_ bytes: Int64, for request: DatabaseRequest, _ tx: any CloudStorageTransaction) throws {
        guard bytes != 0 else { return }
        if bytes > 0, let limit = quotaBytes {
            try tx.addUsage(bytes, payer: Self.payer(of: request), limit: limit)
        } else {
            _ = try tx.addUsage(bytes, payer: Self.payer(of: request), needTotal: false)
        }
    }
}

extension CloudError {
    /// The refusal of a write that would take its account's bytes to `total`, past `limit`.
    public static func overQuota(total: Int64, limit: Int64) -> CloudError {
        CloudError(.quotaExceeded,
                   "this would store \(total) bytes for the account, over its quota of \(limit) bytes; delete records or assets first")
    }
}
