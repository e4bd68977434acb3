import CloudSyncCore

/// How the synchronizer resolves `serverRecordChanged` (a record changed both here and in the
/// cloud since this device last saw it).
public enum MergePolicy: String, Sendable, Hashable, CaseIterable {
    /// The cloud's version wins; local edits are dropped (and logged in the conflict log).
    case server
    /// The local version wins whole.
    case client
    /// The version modified last wins whole.
    case newest
    /// Three-way merge per field against the last version both sides shared; where both
    /// changed the same field, the newer modification wins. The default.
    case fields
}

/// One side of a conflict: the record's fields (nil when deleted) and when it was modified.
public struct MergeSide: Sendable, Hashable {
    public var fields: [String: FieldValue]?
    public var modified: Int64

    public init(fields: [String: FieldValue]?, modified: Int64) {
        self.fields = fields
        self.modified = modified
    }
}

/// What a merge decided.
public struct MergeOutcome: Sendable, Hashable {
    public init(fields: [String: FieldValue]?, resolution: String, contestedKeys: [String]) {
        self.fields = fields
        self.resolution = resolution
        self.contestedKeys = contestedKeys
    }

    /// The merged fields, or nil when the record ends deleted.
    public var fields: [String: FieldValue]?
    /// A human sentence: what won and why.
    public var resolution: String
    /// Fields both sides changed to different values.
    public var contestedKeys: [String]
}

/// Resolves conflicts by a `MergePolicy`. Pure: no I/O.
public enum RecordMerger {
    /// Merges `local` and `server` given their common `ancestor` (nil fields when a side, or the
    /// ancestor, has no record). Edits are never dropped silently: every outcome says what won.
    public static func merge(local: MergeSide, server: MergeSide, ancestor: [String: FieldValue]?,
                             policy: MergePolicy) -> MergeOutcome {
        let localNewer = local.modified >= server.modified
        switch policy {
        case .server:
            return MergeOutcome(fields: server.fields, resolution: "cloud version kept (merge policy server)",
                                contestedKeys: contested(local.fields, server.fields, ancestor))
        case .client:
            return MergeOutcome(fields: local.fields, resolution: "local version kept (merge policy client)",
                                contestedKeys: contested(local.fields, server.fields, ancestor))
        case .newest:
            if server.fields == nil, local.fields != nil {
                return MergeOutcome(fields: local.fields, resolution: "local edit kept over a deletion in the cloud",
                                    contestedKeys: [])
            }
            return MergeOutcome(fields: localNewer ? local.fields : server.fields,
                                resolution: localNewer ? "local version is newer (merge policy newest)"
                                                       : "cloud version is newer (merge policy newest)",
                                contestedKeys: contested(local.fields, server.fields, ancestor))
        case .fields:
            switch (local.fields, server.fields) {
            case (nil, nil):
                return MergeOutcome(fields: nil, resolution: "deleted on both sides", contestedKeys: [])
            case (let l?, nil):
                return MergeOutcome(fields: l, resolution: "local edit kept over a deletion in the cloud", contestedKeys: [])
            case (nil, let s?):
                if let ancestor, s == ancestor {
                    return MergeOutcome(fields: nil, resolution: "local deletion applied (cloud copy unchanged)", contestedKeys: [])
                }
                return MergeOutcome(fields: s, resolution: "cloud changes kept over a local deletion", contestedKeys: [])
            case (let l?, let s?):
                let base = ancestor ?? [:]
                var merged: [String: FieldValue] = [:]
                var contestedKeys: [String] = []
                for key in Set(l.keys).union(s.keys).union(base.keys).sorted() {
                    let a = base[key], lv = l[key], sv = s[key]
                    let chosen: FieldValue?
                    if lv == sv {
                        chosen = lv
                    } else if lv == a {
                        chosen = sv
                    } else if sv == a {
                        chosen = lv
                    } else {
                        contestedKeys.append(key)
                        chosen = localNewer ? lv : sv
                    }
                    if let chosen { merged[key] = chosen }
                }
                let resolution = contestedKeys.isEmpty
                    ? "fields merged (no field changed on both sides)"
                    : "fields merged; \(contestedKeys.joined(separator: ", ")) changed on both sides: \(localNewer ? "local" : "cloud") value is newer"
                return MergeOutcome(fields: merged, resolution: resolution, contestedKeys: contestedKeys)
            }
        }
    }

    static func contested(_ l: [String: FieldValue]?, _ s: [String: FieldValue]?, _ a: [String: FieldValue]?) -> [String] {
        guard let l, let s else { return [] }
        let base = a ?? [:]
        return Set(l.keys).union(s.keys).sorted().filter { l[$0] != s[$0] && l[$0] != base[$0] && s[$0] != base[$0] }
    }
}
