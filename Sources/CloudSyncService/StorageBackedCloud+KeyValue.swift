import CloudSyncCore

extension StorageBackedCloud {
    public func modifyKeyValues(_ writes: [KeyValueWrite], in request: DatabaseRequest) throws(CloudError) -> [KeyValueItem] {
        for write in writes {
            try KeyValueLimits.validateKey(write.key)
            if let value = write.value, value.size > KeyValueLimits.maxValueBytes {
                throw CloudError(.quotaExceeded,
                                 "QuotaViolation: the value of '\(write.key)' is \(value.size) bytes; a value holds at most \(KeyValueLimits.maxValueBytes)")
            }
        }
        return try write { tx in
            let store = try tx.ensureKeyValueStore(container: request.storageContainer, owner: request.userRecordName)
            var seq = store.seq
            let now = clock()
            var items: [KeyValueItem] = []
            for write in writes {
                seq += 1
                try tx.putKeyValue(write.key, write.value, storeID: store.id, seq: seq, now: now, deviceID: request.deviceID)
                items.append(KeyValueItem(key: write.key, value: write.value, modified: now, deviceID: request.deviceID))
            }
            let (count, total) = try tx.keyValueUsage(storeID: store.id)
            guard count <= Int64(KeyValueLimits.maxKeys) else {
                throw CloudError(.quotaExceeded, "QuotaViolation: the store would hold \(count) keys; the limit is \(KeyValueLimits.maxKeys)")
            }
            guard total <= Int64(KeyValueLimits.maxTotalBytes) else {
                throw CloudError(.quotaExceeded, "QuotaViolation: the store would hold \(total) bytes; the limit is \(KeyValueLimits.maxTotalBytes) (1 MB)")
            }
            try enqueueKeyValueNotifications(for: request, tx)
            try tx.setKeyValueSeq(seq, storeID: store.id)
            return items
        }
    }

    public func fetchKeyValueChanges(since token: ServerChangeToken?, in request: DatabaseRequest) throws(CloudError) -> KeyValueChanges {
        var since: Int64 = 0
        var expectedStore: Int64?
        if let token {
            let payload = try ChangeTokenCodec.decode(token.rawValue, expecting: .database)
            guard payload.epoch == epoch else {
                throw CloudError(.changeTokenExpired, "the key-value token comes from another cloud; fetch every key again")
            }
            since = payload.sequence
            expectedStore = payload.scopeID
        }
        let store = try write { tx in try tx.ensureKeyValueStore(container: request.storageContainer, owner: request.userRecordName) }
        return try read { tx in
            if let expectedStore, expectedStore != -store.id {
                throw CloudError(.changeTokenExpired, "the key-value token belongs to another account's store")
            }
            guard let current = try tx.keyValueSeq(storeID: store.id) else {
                throw CloudError(.internalError, "key-value store vanished")
            }
            guard since <= current else {
                throw CloudError(.changeTokenExpired, "the key-value token is ahead of the cloud; fetch every key again")
            }
            let items = try tx.keyValueChanges(storeID: store.id, since: since)
            // Key-value tokens are database-kind tokens with a negative scope id, so they can
            // never be mistaken for a database's token.
            let newToken = ServerChangeToken(rawValue: ChangeTokenCodec.encode(
                TokenPayload(kind: .database, epoch: epoch, scopeID: -store.id, sequence: current)))
            return KeyValueChanges(items: items, token: newToken)
        }
    }
}
