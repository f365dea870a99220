import Foundation
import NIOCore

/// Everything mutable that connections share; only ever touched under ``MockServerCore``'s lock.
struct MockServerState {
    /// A `waitForNotifications` caller.
    struct NotificationWaiter {
        let count: Int
        let continuation: CheckedContinuation<[RecordedNotification], any Error>
    }

    /// A `waitForStats` caller.
    struct StatsWaiter {
        let predicate: @Sendable (APNsMockStats) -> Bool
        let continuation: CheckedContinuation<APNsMockStats, any Error>
    }

    /// What `authenticate` found out about a JWT string.
    enum CachedTokenCheck {
        case verified(VerifiedProviderToken)
        case rejected(ProviderTokenRejection)
    }

    /// Bound on cached JWT checks; a client minting a token per request must not grow memory.
    static let tokenCacheLimit = 10_000

    var stats = APNsMockStats()
    var notifications: [RecordedNotification] = []
    var notificationWaiters: [UInt64: NotificationWaiter] = [:]
    var statsWaiters: [UInt64: StatsWaiter] = [:]
    var nextWaiterID: UInt64 = 0
    var faults = FaultBook()
    /// Lowercased device token → when it stopped being valid.
    var unregisteredTokens: [String: Date] = [:]
    /// Lowercased device tokens answered 400 BadDeviceToken.
    var badTokens: Set<String> = []
    var tokenChecks: [String: CachedTokenCheck] = [:]
    /// JWT strings that passed verification while fresh.
    var acceptedProviderTokens: Set<String> = []
    /// JWT strings an `expireProviderTokens` fault declared expired.
    var expiredProviderTokens: Set<String> = []
    /// Open connections, for SETTINGS broadcasts and shutdown.
    var connections: [Int: any Channel] = [:]
    var nextConnectionID = 0
    var isShutDown = false

    /// Takes the waiters whose condition now holds; the caller resumes them outside the lock.
    mutating func takeSatisfiedWaiters() -> [@Sendable () -> Void] {
        var resumptions: [@Sendable () -> Void] = []
        if !self.notificationWaiters.isEmpty {
            let count = self.notifications.count
            for (id, waiter) in self.notificationWaiters where waiter.count <= count {
                self.notificationWaiters[id] = nil
                let snapshot = self.notifications
                resumptions.append { waiter.continuation.resume(returning: snapshot) }
            }
        }
        if !self.statsWaiters.isEmpty {
            let stats = self.stats
            for (id, waiter) in self.statsWaiters where waiter.predicate(stats) {
                self.statsWaiters[id] = nil
                resumptions.append { waiter.continuation.resume(returning: stats) }
            }
        }
        return resumptions
    }
}
