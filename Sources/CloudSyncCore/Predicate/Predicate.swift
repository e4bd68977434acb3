/// A query predicate: the subset of `NSPredicate` that CloudKit's `CKQuery` accepts.
///
/// Build one with ``PredicateParser/parse(_:arguments:)`` from text such as
/// `count > 5 AND NOT title BEGINSWITH "draft"`, or directly. Evaluate it with
/// ``evaluate(_:)``. There is deliberately no `or` case: CloudKit refuses `OR` (run one query per
/// alternative instead).
public indirect enum Predicate: Sendable, Hashable {
    /// Matches every record (`TRUEPREDICATE`).
    case truePredicate
    /// `field op value`. The field is a record field name or one of the system keys in
    /// ``PredicateKeys`` (`recordName`, `creationDate`, `modificationDate`).
    case comparison(String, PredicateOperator, PredicateValue)
    /// All of the predicates hold (`AND`, `&&`). An empty list matches every record.
    case and([Predicate])
    /// The predicate does not hold (`NOT`, `!`).
    case not(Predicate)
}

/// A comparison operator of a ``Predicate``.
public enum PredicateOperator: String, Sendable, Hashable, CaseIterable {
    /// `==` or `=`.
    case equal = "=="
    /// `!=` or `<>`: always the exact negation of ``equal``.
    case notEqual = "!="
    /// `<`.
    case less = "<"
    /// `<=` or `=<`.
    case lessOrEqual = "<="
    /// `>`.
    case greater = ">"
    /// `>=` or `=>`.
    case greaterOrEqual = ">="
    /// `BEGINSWITH`: a STRING field starts with the value (case-sensitive, by Unicode scalars).
    case beginsWith = "BEGINSWITH"
    /// `IN`: the field equals one of the values of a list.
    case `in` = "IN"
    /// `CONTAINS`: a list field has an element equal to the value.
    case contains = "CONTAINS"
}
