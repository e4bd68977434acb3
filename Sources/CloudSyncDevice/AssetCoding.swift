import CloudSyncService
import CloudSyncCore
import CloudSyncCrypto

/// Turns BYTES fields into assets for the cloud and back. Every BYTES field travels as an
/// asset (SyncKit's default for Data) unless the adapter forces inline data for it: deciding by
/// size would flip a field between BYTES and ASSETID and break the cloud's schema.
enum AssetCoding {
    /// Replaces BYTES (and BYTES lists) with asset references, appending their contents to
    /// `collect` for upload.
    static func assetize(_ fields: [String: FieldValue], recordType: String, adapter: any ModelAdapter,
                         collect: inout [[UInt8]]) throws(CloudError) -> [String: FieldValue] {
        var blobs: [String: [UInt8]] = [:]
        let out = try assetizeForComparison(fields, recordType: recordType, adapter: adapter, blobs: &blobs)
        collect.append(contentsOf: blobs.values)
        return out
    }

    /// The same as `assetize` without uploading: `blobs` maps checksum to contents.
    static func assetizeForComparison(_ fields: [String: FieldValue], recordType: String, adapter: any ModelAdapter,
                                      blobs: inout [String: [UInt8]]) throws(CloudError) -> [String: FieldValue] {
        var out = fields
        for (key, value) in fields where !adapter.forcesData(field: key, recordType: recordType) {
            switch value {
            case .bytes(let bytes):
                out[key] = .asset(reference(bytes, &blobs))
            case .list(.bytes, let items):
                out[key] = .list(.asset, items.map { item -> FieldValue in
                    if case .bytes(let b) = item { return .asset(reference(b, &blobs)) }
                    return item
                })
            default:
                break
            }
        }
        return out
    }

    static func reference(_ bytes: [UInt8], _ blobs: inout [String: [UInt8]]) -> AssetReference {
        let checksum = SHA256.hex(bytes)
        blobs[checksum] = bytes
        return AssetReference(checksum: checksum, size: Int64(bytes.count))
    }

    /// Replaces asset references with their contents: from `known` when this device has them,
    /// otherwise downloaded from the cloud.
    static func resolve(_ record: Record, known: [String: [UInt8]], cloud: any CloudService,
                        request: DatabaseRequest) throws(CloudError) -> Record {
        var out = record
        for (key, value) in record.fields {
            switch value {
            case .asset(let reference):
                out.fields[key] = .bytes(try contents(reference, of: record.recordID, known: known, cloud: cloud, request: request))
            case .list(.asset, let items):
                var resolved: [FieldValue] = []
                for item in items {
                    if case .asset(let reference) = item {
                        resolved.append(.bytes(try contents(reference, of: record.recordID, known: known, cloud: cloud, request: request)))
                    }
                }
                out.fields[key] = .list(.bytes, resolved)
            default:
                break
            }
        }
        return out
    }

    static func contents(_ reference: AssetReference, of record: RecordID, known: [String: [UInt8]], cloud: any CloudService,
                         request: DatabaseRequest) throws(CloudError) -> [UInt8] {
        if let bytes = known[reference.checksum] { return bytes }
        let bytes = try cloud.fetchAsset(reference, of: record, in: request)
        guard SHA256.hex(bytes) == reference.checksum else {
            throw CloudError(.assetFileNotFound, "asset \(reference.checksum.prefix(12))… arrived damaged (checksum mismatch)")
        }
        return bytes
    }
}
