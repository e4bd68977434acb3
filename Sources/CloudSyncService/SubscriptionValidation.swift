import CloudSyncCore

extension Subscription {
    /// Checks everything about the subscription that does not need the stored data: the ID,
    /// which kinds the database allows, the query, the notification info. Every failure is
    /// `invalidArguments` except too many desired keys, which is `limitExceeded` as CloudKit
    /// (both exit 65 on the command line).
    public func validate(for request: DatabaseRequest) throws(CloudError) {
        try Subscription.validateID(subscriptionID)
        switch kind {
        case .database:
            if request.scope == .public {
                throw CloudError(.invalidArguments,
                                 "the public database allows only query subscriptions, not database subscriptions")
            }
        case .recordZone(let zoneName):
            if request.scope == .public {
                throw CloudError(.invalidArguments,
                                 "the public database allows only query subscriptions, not zone subscriptions")
            }
            try NameRules.validateZoneName(zoneName)
            if zoneName == ZoneID.defaultZoneName {
                throw CloudError(.invalidArguments,
                                 "_defaultZone does not track changes, so it cannot have a zone subscription; subscribe to a custom zone or use a query subscription")
            }
        case .query(let query):
            try NameRules.validateIdentifier(query.recordType, kind: "record type")
            // Stored and evaluated on every matching save of every account: bounded here.
            try ServiceRules.validatePredicate(query.predicate)
            if let zoneName = query.zoneName {
                try NameRules.validateZoneName(zoneName)
                if request.scope == .public && zoneName != ZoneID.defaultZoneName {
                    throw CloudError(.invalidArguments, "the public database has only _defaultZone")
                }
            }
            guard !query.firesOn.isEmpty else {
                throw CloudError(.invalidArguments, "a query subscription must fire on at least one of create, update, delete")
            }
            guard QueryFiresOn.all.isSuperset(of: query.firesOn) else {
                throw CloudError(.invalidArguments, "fires-on holds an unknown event")
            }
        }
        let info = notificationInfo
        if let alert = info.alertBody {
            guard query != nil else {
                throw CloudError(.invalidArguments,
                                 "\(kind.typeName) subscriptions deliver silent notifications only; an alert needs a query subscription")
            }
            guard !alert.isEmpty, alert.utf8.count <= SubscriptionLimits.maxAlertLength else {
                throw CloudError(.invalidArguments, "the alert text must be 1 to \(SubscriptionLimits.maxAlertLength) bytes")
            }
        }
        if !info.desiredKeys.isEmpty {
            guard query != nil else {
                throw CloudError(.invalidArguments,
                                 "desired keys apply to query subscriptions only; \(kind.typeName) notifications carry no record")
            }
            guard info.desiredKeys.count <= SubscriptionLimits.maxDesiredKeys else {
                throw CloudError(.limitExceeded,
                                 "a subscription has at most \(SubscriptionLimits.maxDesiredKeys) desired keys, got \(info.desiredKeys.count)")
            }
            var seen = Set<String>()
            for key in info.desiredKeys {
                try NameRules.validateIdentifier(key, kind: "desired key")
                guard seen.insert(key).inserted else {
                    throw CloudError(.invalidArguments, "desired key '\(key)' is given twice")
                }
            }
        }
    }

    /// Checks a subscription ID: 1 to 255 bytes, no control characters, no leading or trailing
    /// space.
    public static func validateID(_ id: String) throws(CloudError) {
        guard !id.isEmpty, id.utf8.count <= SubscriptionLimits.maxIDLength else {
            throw CloudError(.invalidArguments, "a subscription ID must be 1 to \(SubscriptionLimits.maxIDLength) bytes")
        }
        guard id.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }),
              id.first != " ", id.last != " " else {
            throw CloudError(.invalidArguments,
                             "subscription ID \(NameRules.quoted(id)) must not hold control characters or leading/trailing spaces")
        }
    }
}
