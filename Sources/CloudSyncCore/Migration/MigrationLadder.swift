/// The one migration runner of every cloudsync format (the cloud file, the device file, a
/// PostgreSQL cloud), over any `MigrationTarget`.
///
/// A format is an ordered list of steps, each the SQL text that brings a store from the previous
/// version to its own (step 1 creates the format from nothing). A store carries its format mark
/// and version; the steps it lacks are applied in order under the target's exclusive lock. A
/// store of a newer version than this build knows is refused, never touched.
public struct MigrationLadder: Sendable {
    /// The format mark stored in `meta`, such as `cloudsync-device`.
    public let format: String
    /// How messages name a store of this format, such as "device file".
    public let fileKind: String
    /// The steps, in version order 1, 2, 3, …
    public let steps: [MigrationStep]

    /// A ladder. `steps` must be numbered 1, 2, 3, … in order.
    public init(format: String, fileKind: String, steps: [MigrationStep]) {
        precondition(steps.enumerated().allSatisfy { Int64($0.offset + 1) == $0.element.version },
                     "migration steps must be numbered 1, 2, 3, …")
        self.format = format
        self.fileKind = fileKind
        self.steps = steps
    }

    /// The version this build writes and reads.
    public var latestVersion: Int64 { steps.last?.version ?? 0 }

    /// Checks a mark read from the store called `name`: ours, and not newer than this build.
    /// - Returns: true when the store needs an upgrade.
    public func check(_ mark: MigrationMark, name: String) throws(MigrationError) -> Bool {
        guard mark.format == format else { throw .foreignFile(path: name, fileKind: fileKind) }
        guard mark.version <= latestVersion else {
            throw .newerFormat(path: name, fileKind: fileKind, version: mark.version, supported: latestVersion)
        }
        return mark.version < latestVersion
    }

    /// Opens the format on `target`: an up-to-date store costs the one mark read; an older one
    /// is upgraded; an empty one is created, with `onCreate` run under the same lock (for values
    /// such as a store epoch).
    /// - Returns: true when this call created the format in an empty store.
    /// - Throws: `MigrationError` for a foreign or newer store, the target's errors otherwise.
    @discardableResult
    public func prepare(_ target: some MigrationTarget, name: String, onCreate: () throws -> Void = {}) throws -> Bool {
        if let mark = try target.readMark(), try !check(mark, name: name) { return false }
        return try target.withExclusiveLock {
            // Another process may have created or upgraded the format between the read and the lock.
            let mark = try target.readMark()
            if let mark {
                guard try check(mark, name: name) else { return false }
            } else if try !target.holdsNothing() {
                throw MigrationError.foreignFile(path: name, fileKind: fileKind)
            }
            try apply(target, upTo: latestVersion, from: mark?.version ?? 0)
            if mark == nil { try onCreate() }
            return mark == nil
        }
    }

    /// Upgrades an older store to the latest version under the exclusive lock. The version is
    /// re-read under the lock, so concurrent openers upgrade once.
    public func upgrade(_ target: some MigrationTarget, name: String) throws {
        try target.withExclusiveLock {
            guard let mark = try target.readMark() else { throw MigrationError.foreignFile(path: name, fileKind: fileKind) }
            guard try check(mark, name: name) else { return }
            try apply(target, upTo: latestVersion, from: mark.version)
        }
    }

    /// Applies the steps after `from` up to `version` (for fixtures of older formats too). Call
    /// under the exclusive lock.
    public func apply(_ target: some MigrationTarget, upTo version: Int64, from: Int64 = 0) throws {
        for step in steps where step.version > from && step.version <= version {
            try target.apply(step, format: format)
        }
    }
}
