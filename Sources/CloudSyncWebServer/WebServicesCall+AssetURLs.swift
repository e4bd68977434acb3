import CloudSyncService
import CloudSyncCore
import CloudSyncWebProtocol

/// The asset URLs a call hands out: absolute, and signed when the server has grants.
extension WebServicesCall {
    /// The upload URL of `assets/upload`: `…/assets/data?ckAssetGrant=…` (15 minutes).
    func uploadURL() throws(CloudError) -> String {
        var data = path
        data.endpoint = .assetsData
        guard let grants else { return AssetGrants.base(publicURL: nil, scheme: "http", host: request.header("Host")) + data.text }
        let grant = AssetGrant(kind: .upload, container: path.container, environment: path.environment.rawValue,
                               scope: path.scope.rawValue, account: account.name, expires: 0)
        return grants.base(host: request.header("Host")) + data.text + "?" + AssetGrants.parameter + "="
            + (try grants.sign(grant, lifetime: AssetGrants.uploadLifetime))
    }

    /// An asset's `downloadURL`: `…/assets/download/${f}?fileChecksum=…&size=…[&zoneName=…&recordName=…&ownerRecordName=…]`
    /// with a grant (1 hour); `${f}` is Apple's placeholder for a file name the client picks.
    func downloadURL(checksum: String, size: Int64, record: (zoneName: String, recordName: String, owner: String)?) throws(CloudError) -> String {
        var download = path
        download.endpoint = .assetsDownload
        var query = [("fileChecksum", checksum), ("size", String(size))]
        if let record {
            query += [("zoneName", record.zoneName), ("recordName", record.recordName), (AssetGrants.ownerParameter, record.owner)]
        }
        let base = grants?.base(host: request.header("Host")) ?? AssetGrants.base(publicURL: nil, scheme: "http", host: request.header("Host"))
        if let grants {
            let grant = AssetGrant(kind: .download, container: path.container, environment: path.environment.rawValue,
                                   scope: path.scope.rawValue, account: account.name, checksum: checksum, size: size,
                                   zoneName: record?.zoneName ?? "", recordName: record?.recordName ?? "", owner: record?.owner ?? "",
                                   expires: 0)
            query.append((AssetGrants.parameter, try grants.sign(grant, lifetime: AssetGrants.downloadLifetime)))
        }
        return base + download.text + "/${f}?" + query.map { $0.0 + "=" + Self.percentEncoded($0.1) }.joined(separator: "&")
    }

    /// `reply` with a `downloadURL` in every asset dictionary of its `records` (lookup, query,
    /// changes). In the shared database the URL names the record and its owner.
    func withDownloadURLs(_ reply: JSONValue) throws(CloudError) -> JSONValue {
        guard case .object(var pairs) = reply, let index = pairs.firstIndex(where: { $0.0 == "records" }),
              case .array(let records) = pairs[index].1 else { return reply }
        var out: [JSONValue] = []
        for record in records {
            guard case .object(var members) = record, let f = members.firstIndex(where: { $0.0 == "fields" }),
                  case .object(let fields) = members[f].1 else { out.append(record); continue }
            var owned: (zoneName: String, recordName: String, owner: String)?
            if path.scope == .shared {
                let zoneID = record["zoneID"]
                owned = (zoneID?["zoneName"]?.stringValue ?? "", record["recordName"]?.stringValue ?? "",
                         database.sharedOwner ?? zoneID?["ownerRecordName"]?.stringValue ?? "")
            }
            var annotated: [(String, JSONValue)] = []
            for (name, field) in fields {
                guard case .object(var parts) = field, let v = parts.firstIndex(where: { $0.0 == "value" }) else {
                    annotated.append((name, field)); continue
                }
                parts[v].1 = try annotate(parts[v].1, record: owned)
                annotated.append((name, .object(parts)))
            }
            members[f].1 = .object(annotated)
            out.append(.object(members))
        }
        pairs[index].1 = .array(out)
        return .object(pairs)
    }

    /// An asset dictionary (or a list of them) with its `downloadURL`; other values as they are.
    func annotate(_ value: JSONValue, record: (zoneName: String, recordName: String, owner: String)?) throws(CloudError) -> JSONValue {
        switch value {
        case .array(let items):
            var out: [JSONValue] = []
            for item in items { out.append(try annotate(item, record: record)) }
            return .array(out)
        case .object(var pairs):
            guard let checksum = value["fileChecksum"]?.stringValue, let size = value["size"]?.int64Value else { return value }
            pairs.removeAll { $0.0 == "downloadURL" }
            pairs.append(("downloadURL", .string(try downloadURL(checksum: checksum, size: size, record: record))))
            return .object(pairs)
        default:
            return value
        }
    }

    /// Whether a record holds an asset (its changes then go through `withDownloadURLs`).
    static func holdsAsset(_ record: Record) -> Bool {
        func holds(_ value: FieldValue) -> Bool {
            switch value {
            case .asset: true
            case .list(_, let items): items.contains(where: holds)
            default: false
            }
        }
        return record.fields.values.contains(where: holds)
    }

    /// `text` percent-encoded for a query value (RFC 3986 unreserved characters kept).
    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
