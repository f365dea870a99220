import Testing
@testable import PushStorePostgres

/// `withDeadline` answers the operation's result whenever it comes before the deadline. It once
/// lost that race: the timer, cancelled when the operation answered, woke at once and reported a
/// deadline that had not passed, and `/ready` said "no answer within 2 s" a millisecond in.
@Suite(.timeLimit(.minutes(5))) struct DeadlineTests {
    @Test func anOperationThatAnswersInTimeIsNeverReportedLate() async throws {
        for n in 0..<2_000 {
            #expect(try await withDeadline(.seconds(30)) { n } == n)
        }
    }

    @Test func anOperationPastTheDeadlineIsReportedLate() async throws {
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(50)) {
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
    }

    @Test func anOperationsErrorComesThrough() async throws {
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await withDeadline(.seconds(30)) { () async throws -> Int in throw Refused() }
        }
    }
}
