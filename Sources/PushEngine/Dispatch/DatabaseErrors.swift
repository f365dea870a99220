import Metrics

/// `pushrelay_database_errors_total{operation}`: the store's errors, counted where they surface —
/// a webhook answered 503, a REST request answered 500, a claim or an outcome the dispatcher
/// could not write, the fleet upkeep, the pruner, the credential reload, the readiness check. The label takes only the
/// values of `Operation`, so the series are few and known in advance, and each starts at 0
/// (`startAtZero`): an alert on `increase()` sees the first error.
public enum DatabaseErrors {
    public static let label = "pushrelay_database_errors_total"

    /// Where a store error surfaced.
    public enum Operation: String, CaseIterable, Sendable {
        /// A webhook's read or commit (answered 503 with Retry-After).
        case webhook
        /// A REST request (answered 500).
        case rest
        /// The dispatcher claiming due pushes or reading when the next one is due.
        case claim
        /// The dispatcher recording outcomes, or the webhook putting handed-off pushes back.
        case record
        /// Renewing this relay's claims, re-reading the backlog and the fleet's state.
        case upkeep
        /// Pruning the delivery log.
        case prune
        /// Reloading API tokens and session revocations.
        case credentials
        /// The writability check behind `GET /ready` and a fleet's webhook refusals (at most one a
        /// second): counts an outage even while no other query fails fast (a pool waiting to
        /// reconnect holds its queries rather than failing them).
        case readiness
    }

    /// Counts one error of `operation`.
    public static func count(_ operation: Operation, factory: any MetricsFactory = MetricsSystem.factory) {
        Counter(label: label, dimensions: [("operation", operation.rawValue)], factory: factory).increment()
    }

    /// Makes every operation's series, at 0.
    public static func startAtZero(factory: any MetricsFactory = MetricsSystem.factory) {
        for operation in Operation.allCases {
            Counter(label: label, dimensions: [("operation", operation.rawValue)], factory: factory).increment(by: 0)
        }
    }
}
