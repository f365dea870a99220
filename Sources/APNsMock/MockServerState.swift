import Foundation
import MockSupport

/// Everything mutable that connections share; only ever touched under ``MockServerCore``'s lock.
struct MockServerState {
    /// What `authenticate` found out about a JWT string.
    enum CachedTokenCheck {
        case verified(VerifiedProviderToken)
        case rejected(ProviderTokenRejection)
    }

    /// Bound on cached JWT checks; a client minting a token per request must not grow memory.
    static let tokenCacheLimit = 10_000

    var stats = APNsMockStats()
    /// Accepted notifications, and the `waitForNotifications` callers.
    var notifications = Recordings<RecordedNotification>()
    /// `waitForStats` callers.
    var statsWaiters = ConditionWaiters<APNsMockStats>()
    var faults = FaultBook()
    /// Lowercased device token → when it stopped being valid.
    var unregisteredTokens: [String: Date] = [:]
    /// Lowercased device tokens answered 400 BadDeviceToken.
    var badTokens: Set<String> = []
    /// Lowercased device token → the environment the app build that made it talks to: a token of
    /// the other environment is answered 400 BadDeviceToken, as Apple does.
    var tokenEnvironments: [String: APNsMockConfiguration.Environment] = [:]
    /// Lowercased Live Activity tokens: which pushes each takes (`LiveActivityTokenKind`).
    var liveActivityTokens: [String: LiveActivityTokenKind] = [:]
    /// Broadcast channels created through the channel management API.
    var channels = BroadcastChannels()
    var tokenChecks: [String: CachedTokenCheck] = [:]
    /// JWT strings that passed verification while fresh.
    var acceptedProviderTokens: Set<String> = []
    /// JWT strings an `expireProviderTokens` fault declared expired.
    var expiredProviderTokens: Set<String> = []
    /// Open connections, for SETTINGS broadcasts and shutdown.
    var connections = OpenConnections()

    /// Resumes the waits the counters now satisfy.
    mutating func resumeSatisfiedWaiters() {
        statsWaiters.resume(satisfiedBy: stats)
    }
}
