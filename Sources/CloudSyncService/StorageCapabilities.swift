/// What a storage offers beyond `CloudStorage`, asked of it (`CloudStorage.storageCapabilities`)
/// instead of found by casting (issue 31): a check of its contents (`cloud check`), a copy from or
/// into it (`cloud copy`), the per-container figures of the console and `/metrics`, and the
/// group-commit figures `serve` logs. A storage names each it has; nil is "not offered".
public struct StorageCapabilities {
    /// `cloud check`: reads every row and reports what is wrong.
    public var checking: (any CloudStorageChecking)?
    /// `cloud copy`: reads every row out, or writes them into an empty store.
    public var copying: (any CloudStorageCopying)?
    /// Records and bytes per container (the console, `/metrics`).
    public var figures: (any CloudStorageFigures)?
    /// How many writes each group commit carried (`serve`'s log).
    public var writeGrouping: (any WriteGrouping)?
    /// Write transactions confirm a credential at no extra round trip
    /// (`CloudStorageTransaction.expectCredentialInForce`): requests to modify records may be
    /// admitted on a token this process found in force before (`CredentialConfirmation`).
    public var confirmsCredentialsInWrites = false

    /// A storage offering the capabilities given (none by default).
    public init(checking: (any CloudStorageChecking)? = nil, copying: (any CloudStorageCopying)? = nil,
                figures: (any CloudStorageFigures)? = nil, writeGrouping: (any WriteGrouping)? = nil) {
        self.checking = checking
        self.copying = copying
        self.figures = figures
        self.writeGrouping = writeGrouping
    }
}
