import CloudSyncCore
import CloudSyncCrypto

extension StorageBackedCloud {
    public func uploadAssets(_ contents: [[UInt8]], in request: DatabaseRequest) throws(CloudError) -> [AssetReference] {
        guard contents.count <= CloudLimits.maxRecordsPerModify else {
            throw CloudError(.limitExceeded, "upload at most \(CloudLimits.maxRecordsPerModify) assets at once")
        }
        for blob in contents where blob.count > CloudLimits.maxAssetSize {
            throw CloudError(.limitExceeded, "an asset of \(blob.count) bytes is over the \(CloudLimits.maxAssetSize / 1_048_576) MB limit")
        }
        if request.scope == .shared {
            let shared = try sharedRequest(request, owners: [])
            try read { tx in try requireWritableSharedZone(shared, tx) }
            return try uploadAssets(contents, in: shared.ownerView)
        }
        let references = contents.map { AssetReference(checksum: SHA256.hex($0), size: Int64($0.count)) }
        try write { tx in
            let db = try ensureDatabase(request, tx)
            let now = clock()
            var bytes: Int64 = 0
            for (reference, blob) in zip(references, contents) {
                if try tx.assetSize(checksum: reference.checksum, dbID: db.id) == nil { bytes += reference.size }
                try tx.insertAssetIfAbsent(reference, data: blob, dbID: db.id, now: now)
            }
            try charge(bytes, for: request, tx)
        }
        return references
    }

    public func fetchAsset(_ reference: AssetReference, of record: RecordID?, in request: DatabaseRequest) throws(CloudError) -> [UInt8] {
        if request.scope == .shared {
            let shared = try sharedRequest(request, owners: record.map { [$0.zoneID.ownerRecordName] } ?? [])
            try requireSharedAsset(reference, of: record, shared)
            return try fetchAsset(reference, of: nil, in: shared.ownerView)
        }
        return try read { tx in
            guard let db = try findDatabase(request, tx),
                  let data = try tx.assetData(checksum: reference.checksum, dbID: db.id) else {
                throw CloudError(.assetFileNotFound, "asset \(reference.checksum.prefix(12))… is not in the cloud")
            }
            return data
        }
    }

    /// Checks that every asset a record references was uploaded to this database.
    func checkAssets(_ fields: [String: FieldValue], dbID: Int64, _ tx: any CloudStorageTransaction) throws {
        func visit(_ value: FieldValue) throws {
            switch value {
            case .asset(let reference):
                let found = try tx.assetSize(checksum: reference.checksum, dbID: dbID)
                guard found == reference.size else {
                    throw CloudError(.assetFileNotFound,
                                     "asset \(reference.checksum.prefix(12))… was not uploaded; upload it before saving the record")
                }
            case .list(_, let items):
                for item in items { try visit(item) }
            default:
                break
            }
        }
        for value in fields.values { try visit(value) }
    }
}
