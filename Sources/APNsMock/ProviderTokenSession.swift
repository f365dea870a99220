import Foundation

/// One connection's provider-token history, enforcing Apple's churn rule: a connection may switch
/// to a different valid token only if its current one was first accepted at least 20 minutes ago
/// or was itself refused as expired; otherwise 429 `TooManyProviderTokenUpdates`. Pure.
struct ProviderTokenSession {
    static let minimumRefreshInterval: TimeInterval = 20 * 60

    enum Outcome: Equatable {
        /// The token is the connection's current one; `isNew` when it just became so.
        case accepted(isNew: Bool)
        case tooManyUpdates
    }

    private(set) var current: String?
    private var currentAcceptedAt = Date.distantPast
    private var currentRejectedAsExpired = false

    /// A fresh, verified token arrived.
    mutating func offer(_ jwt: Substring, now: Date) -> Outcome {
        if let current = self.current {
            if current == jwt { return .accepted(isNew: false) }
            if now.timeIntervalSince(self.currentAcceptedAt) < Self.minimumRefreshInterval
                && !self.currentRejectedAsExpired
            {
                return .tooManyUpdates
            }
        }
        self.current = String(jwt)
        self.currentAcceptedAt = now
        self.currentRejectedAsExpired = false
        return .accepted(isNew: true)
    }

    /// `jwt` was refused as expired; if it is the current token, the connection may move on.
    mutating func refusedAsExpired(_ jwt: Substring) {
        if let current = self.current, current == jwt {
            self.currentRejectedAsExpired = true
        }
    }
}
