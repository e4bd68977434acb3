import CloudSyncCore
import CloudSyncDevice

/// One `SyncEngine` event as a JSON line (documented in `SyncJSONOutput.events`).
enum SyncEventJSON {
    static func encode(_ event: SyncEngineEvent, time: Int64) -> JSONValue {
        var members: [(String, JSONValue)]
        switch event {
        case .pushed(let saved, let deleted, let failed, let ms):
            members = [("event", .string("pushed")), ("saved", .int(Int64(saved))), ("deleted", .int(Int64(deleted))),
                       ("failed", .int(Int64(failed))), ("ms", .int(ms))]
        case .pulled(let changed, let deleted, let ms):
            members = [("event", .string("pulled")), ("changed", .int(Int64(changed))), ("deleted", .int(Int64(deleted))), ("ms", .int(ms))]
        case .conflict(let conflict):
            members = [("event", .string("conflict")), ("zoneName", .string(conflict.zoneName)), ("recordName", .string(conflict.recordName)),
                       ("resolution", .string(conflict.resolution))]
        case .offline(let reason, let retryIn):
            members = [("event", .string("offline")), ("reason", .string(reason)), ("retryIn", .double(rounded(retryIn)))]
        case .online(let seconds):
            members = [("event", .string("online")), ("offlineSeconds", .double(rounded(seconds)))]
        case .toggle(let on):
            members = [("event", .string("toggle")), ("syncOn", .bool(on))]
        case .zoneRecreated(let zone):
            members = [("event", .string("zoneRecreated")), ("zoneName", .string(zone))]
        case .zoneDropped(let zone):
            members = [("event", .string("zoneDropped")), ("zoneName", .string(zone))]
        case .failed(let error, let retryIn):
            members = [("event", .string("failed")), ("serverErrorCode", .string(error.code.serverErrorCode)), ("reason", .string(error.reason)),
                       ("retryIn", .double(rounded(retryIn)))]
        case .cycle(let ms, let pending, let on):
            members = [("event", .string("cycle")), ("ms", .int(ms)), ("pending", .int(Int64(pending))), ("syncOn", .bool(on))]
        }
        members.insert(("time", .int(time)), at: 1)
        return .object(members)
    }

    static func rounded(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// Seconds for a message: whole seconds from 10 up, one decimal below.
    static func seconds(_ value: Double) -> String {
        value >= 10 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }
}
