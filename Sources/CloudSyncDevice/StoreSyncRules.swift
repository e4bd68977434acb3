/// The models that keep their records in the local store's zone (OTP tokens) and lend their
/// rules to `store sync`: conflict resolution and inline-data choices for their record types,
/// so syncing through the generic store never breaks a model's invariants (an HOTP counter never
/// goes back). The composition root registers each model's adapter here, so the store's command
/// depends on no model module.
public struct StoreSyncRules: Sendable {
    /// Makes a model's adapter, given whether BYTES fields travel inline (`--force-data`).
    public typealias MakeRule = @Sendable (_ forceData: Bool) -> any ModelAdapter

    /// The registered makers, in the order their rules are consulted.
    public private(set) var makers: [MakeRule] = []

    /// No rules: the store's merge policy alone decides.
    public init() {}

    /// Adds a model's adapter; earlier registrations are consulted first.
    public mutating func register(_ make: @escaping MakeRule) {
        makers.append(make)
    }

    /// Every registered adapter, made for one sync.
    public func rules(forceData: Bool) -> [any ModelAdapter] {
        makers.map { $0(forceData) }
    }

    /// The generic store's adapter with these rules.
    public func storeAdapter(zoneName: String = LocalStoreDefaults.zoneName, forceData: Bool) -> GenericStoreAdapter {
        GenericStoreAdapter(zoneName: zoneName, forceData: forceData, rules: rules(forceData: forceData))
    }
}
