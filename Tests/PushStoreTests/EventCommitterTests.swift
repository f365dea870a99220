import Foundation
import GRDB
import Testing

@testable import PushStore
@testable import StoreContract

/// The committer's leader/follower hand-off when transactions fail: every caller is answered,
/// and the lead passes on, so the committer works again once the store does.
@Suite(.timeLimit(.minutes(5))) struct EventCommitterTests {
    @Test(.timeLimit(.minutes(1))) func failedCommitsAnswerEveryCallerAndTheLeadPassesOn() async throws {
        let file = try TemporaryDatabase()
        let store = try file.open(configuration: PushStoreConfiguration(busyTimeout: .milliseconds(100)))
        let committer = EventCommitter(store: store, maximumBatch: 4)
        // Another connection holds SQLite's write lock: every transaction fails as busy.
        var holdsLock = Configuration()
        holdsLock.allowsUnsafeTransactions = true
        let blocker = try DatabaseQueue(path: file.path, configuration: holdsLock)
        try await blocker.writeWithoutTransaction { try $0.execute(sql: "BEGIN IMMEDIATE") }

        let failures = try await withThrowingTaskGroup(of: Bool.self) { group in
            for n in 0..<20 {
                group.addTask {
                    do {
                        _ = try await committer.commit(PushStoreDeliveriesTests.event(Int64(n)))
                        return false
                    } catch {
                        return true
                    }
                }
            }
            return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        #expect(failures == 20)

        try await blocker.writeWithoutTransaction { try $0.execute(sql: "ROLLBACK") }
        let ids = try await withThrowingTaskGroup(of: [Int64]?.self) { group in
            for n in 0..<20 { group.addTask { try await committer.commit(PushStoreDeliveriesTests.event(Int64(n))) } }
            return try await group.reduce(into: [[Int64]?]()) { $0.append($1) }
        }
        #expect(ids.compactMap { $0 }.count == 20)
        #expect(try await store.pendingCount() == 20)
    }
}
