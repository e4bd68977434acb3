import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

extension HTTPCloud {
    /// The result of a records modify that was sent again after a try a node may have applied
    /// (a balancer's 502 or 504 when the node died), by `exchange` or, after a failure in
    /// between, as a new call (`uncertain`): an item the repeat reports as failed
    /// because the first try already did it is counted as done, not as a conflict or a loss.
    ///
    /// - a save refused with `serverRecordChanged` whose server record is this very save (same
    ///   type, every field sent has the value sent, last modified by this account and device) was
    ///   saved by the first try: it is returned as saved, with the server's system fields;
    /// - a delete refused with `unknownItem` was deleted by the first try.
    ///
    /// Anything else stays an error: another writer's change is still a conflict.
    static func reconcileRepeated(_ result: ModifyResult, of request: ModifyRequest, in database: DatabaseRequest) -> ModifyResult {
        var out = result
        for (id, error) in result.errors {
            let key = RecordsCodec.key(id)
            if error.code == .serverRecordChanged, let server = error.serverRecord,
               let sent = request.saves.first(where: { RecordsCodec.key($0.recordID) == key }),
               isOwnSave(server, of: sent, in: database) {
                var saved = server
                saved.recordID = sent.recordID
                out.saved.append(saved)
                out.errors[id] = nil
            } else if error.code == .unknownItem, let deleted = request.deletes.first(where: { RecordsCodec.key($0) == key }) {
                out.deleted.append(deleted)
                out.errors[id] = nil
            }
        }
        return out
    }

    /// The keys of a modify's items in `uncertain`: database, device, zone and record name.
    static func uncertainKeys(_ request: ModifyRequest, in database: DatabaseRequest) -> Set<String> {
        let prefix = [database.container, database.scope.rawValue, database.userRecordName, database.deviceID].joined(separator: "\u{0}")
        return Set((request.saves.map(\.recordID) + request.deletes).map { prefix + "\u{0}" + RecordsCodec.key($0) })
    }

    /// Whether `server` is what saving `sent` from this database's account and device makes.
    static func isOwnSave(_ server: Record, of sent: Record, in database: DatabaseRequest) -> Bool {
        guard server.recordType == sent.recordType, let modified = server.system?.modified else { return false }
        if modified.userRecordName != database.userRecordName { return false }
        if !modified.deviceID.isEmpty, modified.deviceID != database.deviceID { return false }
        return sent.fields.allSatisfy { server.fields[$0.key] == $0.value }
    }
}
