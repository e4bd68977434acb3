import CloudSyncService
import CloudSyncCore

/// The sharing primitives of `MemoryCloudStorage` (issue 18).
extension MemoryCloudTransaction {
    func accountName(ofUserRecordName userRecordName: String) throws -> String? {
        state.accounts.first { $0.value == userRecordName }?.key
    }

    func share(zoneName: String, dbID: Int64) throws -> ShareRow? { state.shares[dbID]?[zoneName]?.row }

    func shares(dbID: Int64) throws -> [ShareRow] {
        (state.shares[dbID] ?? [:]).values.map(\.row).sorted { Array($0.zoneName.utf8).lexicographicallyPrecedes($1.zoneName.utf8) }
    }

    func putShare(_ row: ShareRow, dbID: Int64) throws {
        let participants = state.shares[dbID]?[row.zoneName]?.participants ?? [:]
        state.shares[dbID, default: [:]][row.zoneName] = (row, participants)
    }

    func deleteShare(zoneName: String, dbID: Int64) throws { state.shares[dbID]?[zoneName] = nil }

    func shareParticipants(zoneName: String, dbID: Int64) throws -> [ShareParticipantRow] {
        (state.shares[dbID]?[zoneName]?.participants ?? [:]).values.sorted { $0.userRecordName < $1.userRecordName }
    }

    func putShareParticipant(_ row: ShareParticipantRow, zoneName: String, dbID: Int64) throws {
        state.shares[dbID]?[zoneName]?.participants[row.userRecordName] = row
    }

    func deleteShareParticipant(_ userRecordName: String, zoneName: String, dbID: Int64) throws {
        state.shares[dbID]?[zoneName]?.participants[userRecordName] = nil
    }

    func sharedZones(dbID: Int64) throws -> [SharedZoneRow] {
        (state.sharedZones[dbID] ?? [:]).values.sorted { ($0.owner, $0.zoneName) < ($1.owner, $1.zoneName) }
    }

    func putSharedZone(_ row: SharedZoneRow, dbID: Int64) throws {
        state.sharedZones[dbID, default: [:]][row.owner + "/" + row.zoneName] = row
    }

    func sharedZoneChanges(dbID: Int64, since: Int64, limit: Int) throws -> [SharedZoneRow] {
        Array((state.sharedZones[dbID] ?? [:]).values.filter { $0.dbSeq > since }.sorted { $0.dbSeq < $1.dbSeq }.prefix(limit))
    }
}
