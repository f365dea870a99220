import Testing
@testable import PushService
@testable import PushEngine

/// `pushrelay_database_errors_total{operation}`: one series per operation from the start, at 0,
/// so that an alert on its increase sees the first error; each error counts under its operation.
@Suite(.timeLimit(.minutes(5))) struct DatabaseErrorsTests {
    @Test func everyOperationStartsAtZeroAndCountsItsOwn() {
        let registry = PrometheusTestRegistry()
        DatabaseErrors.startAtZero(factory: registry.factory)
        var text = registry.text
        for operation in ["webhook", "rest", "claim", "record", "upkeep", "prune", "credentials", "readiness"] {
            #expect(text.contains(#"pushrelay_database_errors_total{operation="\#(operation)"} 0"#), "\(operation):\n\(text)")
        }
        DatabaseErrors.count(.webhook, factory: registry.factory)
        DatabaseErrors.count(.webhook, factory: registry.factory)
        DatabaseErrors.count(.record, factory: registry.factory)
        // Starting again (a second relay in one process) keeps what was counted.
        DatabaseErrors.startAtZero(factory: registry.factory)
        text = registry.text
        #expect(text.contains(#"pushrelay_database_errors_total{operation="webhook"} 2"#), "\(text)")
        #expect(text.contains(#"pushrelay_database_errors_total{operation="record"} 1"#), "\(text)")
        #expect(text.contains(#"pushrelay_database_errors_total{operation="claim"} 0"#), "\(text)")
    }
}
