import Foundation
import Synchronization

/// Hands out the provider token for one key/team, minting a new one when the current one gets
/// old or APNs reports it expired.
///
/// Apple wants a token refreshed no more than once every 20 minutes (else 429
/// `TooManyProviderTokenUpdates`) and no less than once every 60 (else 403
/// `ExpiredProviderToken`). Minting happens under the lock, so concurrent callers during a
/// refresh wait for the one new token instead of minting their own.
public final class ProviderTokenCache: Sendable {
    public let factory: ProviderTokenFactory
    /// Age after which `current()` mints a new token; within 20...60 minutes.
    public let refreshAfter: Duration
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    private struct State {
        var token: ProviderToken?
        var minted = 0
    }

    /// A clock stepped back by more than this makes the cached token look issued in the future;
    /// such a token is replaced rather than kept for possibly more than an hour of real time.
    private static let clockStepTolerance: TimeInterval = 60

    /// - Parameters:
    ///   - refreshAfter: default 50 minutes, leaving a margin before Apple's 60-minute limit.
    ///     Must lie within 20...60 minutes (a programming error otherwise).
    ///   - now: the wall clock (injected for tests).
    /// - Throws: `.invalidKeyID` / `.invalidTeamID`.
    public init(
        key: APNsSigningKey, keyID: String, teamID: String,
        refreshAfter: Duration = .seconds(50 * 60),
        now: @escaping @Sendable () -> Date = Date.init
    ) throws(APNsCredentialError) {
        precondition(
            refreshAfter >= .seconds(20 * 60) && refreshAfter <= .seconds(60 * 60),
            "APNs provider tokens must be refreshed between 20 and 60 minutes; got \(refreshAfter)")
        self.factory = try ProviderTokenFactory(key: key, keyID: keyID, teamID: teamID)
        self.refreshAfter = refreshAfter
        self.now = now
    }

    /// The token to send now: the cached one, or a freshly minted one if there is none yet or
    /// the cached one is at least `refreshAfter` old.
    public func current() throws(APNsCredentialError) -> ProviderToken {
        try state.withLock { (state: inout State) throws(APNsCredentialError) -> ProviderToken in
            let now = self.now()
            if let token = state.token, !isDue(token, now: now) { return token }
            return try mint(&state, now: now)
        }
    }

    /// Called after APNs answered 403 `ExpiredProviderToken` to a request sent with the token of
    /// `generation`. Mints a replacement only if that token is still the current one; if a newer
    /// one exists (another failed request already replaced it) returns that without minting, so
    /// a burst of failures from the same token mints exactly one new token.
    public func invalidate(generation: UInt64) throws(APNsCredentialError) -> ProviderToken {
        try state.withLock { (state: inout State) throws(APNsCredentialError) -> ProviderToken in
            if let token = state.token, token.generation > generation { return token }
            return try mint(&state, now: self.now())
        }
    }

    /// How many tokens this cache has minted (for tests and metrics).
    public var mintedCount: Int {
        state.withLock { $0.minted }
    }

    private func isDue(_ token: ProviderToken, now: Date) -> Bool {
        let age = now.timeIntervalSince(token.issuedAt)
        return age >= Self.seconds(refreshAfter) || age < -Self.clockStepTolerance
    }

    private func mint(_ state: inout State, now: Date) throws(APNsCredentialError) -> ProviderToken {
        let generation = (state.token?.generation ?? 0) + 1
        let token = try factory.makeToken(issuedAt: now, generation: generation)
        state.token = token
        state.minted += 1
        return token
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}
