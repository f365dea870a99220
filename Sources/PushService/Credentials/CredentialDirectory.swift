import Foundation
import Logging
import PushCore
import PushEngine
import PushStore
import StoreContract
import ServiceLifecycle
import Synchronization

/// This relay's view of the credentials the database holds: every app's secondary API tokens (as
/// digests) and each app's "sessions revoked before". `Api-Token` is checked against it without
/// the database; a session token's issuer and revocation are checked against it after the
/// session's one lookup.
///
/// The database is the truth, for every relay of a fleet: a change made anywhere reaches this
/// view within a second — at once through the store's `CredentialWatch` (PostgreSQL's
/// `LISTEN/NOTIFY`), and by a reload every `pollInterval` while the watch is not hearing. A view
/// not confirmed for `maximumStaleness` cannot say whether a secondary token or a session's issuer
/// is still valid, and says so (`unverifiable`: 503) rather than let a revoked one through.
/// This relay's own changes apply here as soon as the store has committed them.
public final class CredentialDirectory: Sendable {
    public enum TokenLookup: Sendable, Equatable {
        case app(String)
        case unknown
        /// The view is too old to tell (the database has been out of reach).
        case unverifiable
    }

    struct Entry: Sendable {
        let app: String
        let digest: [UInt8]
    }

    private struct State: Sendable {
        var tokens: [Entry] = []
        var revokedBefore: [ExactID: Int64] = [:]
        /// When the view was last known to equal the database (monotonic).
        var confirmedAt: ContinuousClock.Instant
        /// Moves with every change this relay makes: a reload begun before one is not applied.
        var localChanges: UInt64 = 0
        var pendingApps: Set<String> = []
        var pendingAll = false
        var reloading = false
        /// Since when a change this relay heard of could not be read: the view is behind the
        /// database although the watch hears.
        var owedSince: ContinuousClock.Instant?
    }

    /// Reloads while the store's watch is not hearing other relays' changes.
    static let pollInterval: Duration = .milliseconds(500)
    /// Reloads while it is (belt and braces: a notification lost without the connection failing).
    static let hearingPollInterval: Duration = .seconds(30)
    static let maximumStaleness: Duration = .seconds(2)
    /// A failed reload is tried again this soon (doubling up to `pollInterval`), not at the next poll.
    static let retryDelay: Duration = .milliseconds(100)

    let store: any RelayStore
    let sessionTokens: SessionTokenFormat
    /// Until when session tokens of the form issued before tags may still be valid (Unix ms);
    /// after it, a token of that form is refused without a lookup.
    let legacyUntilMs: Int64?
    private let state: Mutex<State>
    private let logger: Logger

    /// Loads the view, the session-token key and the legacy window from the store.
    /// - Parameter maximumSessionLifetime: the longest any app allows (`AppLimits`).
    public static func load(
        store: any RelayStore, maximumSessionLifetime: Duration, logger: Logger
    ) async throws -> CredentialDirectory {
        let key = try await store.relaySecret(
            named: SessionTokenFormat.secretName, fresh: Data(CredentialToken.randomBytes(count: 32)))
        let legacy = try await store.legacySessionTokensUntil(maximumLifetimeMs: maximumSessionLifetime.milliseconds)
        let directory = CredentialDirectory(
            store: store, sessionTokens: SessionTokenFormat(key: key), legacyUntilMs: legacy, logger: logger)
        try await directory.reload(app: nil)
        return directory
    }

    init(store: any RelayStore, sessionTokens: SessionTokenFormat, legacyUntilMs: Int64?, logger: Logger) {
        self.store = store
        self.sessionTokens = sessionTokens
        self.legacyUntilMs = legacyUntilMs
        self.logger = logger
        state = Mutex(State(confirmedAt: .now))
        store.credentialWatch.onChange { [weak self] app in self?.changed(app: app) }
    }

    /// Whether the view is known to be the database's now. A change heard and not read for
    /// `maximumStaleness` makes it unknown, however well the watch hears.
    var isCurrent: Bool {
        let hearing = store.credentialWatch.isHearing
        return state.withLock { state in
            if let owed = state.owedSince, .now - owed >= Self.maximumStaleness { return false }
            return hearing || .now - state.confirmedAt < Self.maximumStaleness
        }
    }

    // MARK: Checks

    /// The app whose secondary API token has this SHA-256 digest. Compares against every entry
    /// in constant time without stopping early, as `AppRegistry` does for master tokens.
    func app(forDigest presented: [UInt8]) -> TokenLookup {
        let found = state.withLock { state in
            var found: String?
            for entry in state.tokens where AppRegistry.constantTimeEqual(entry.digest, presented) {
                found = entry.app
            }
            return found
        }
        if let found { return isCurrent ? .app(found) : .unverifiable }
        return isCurrent ? .unknown : .unverifiable
    }

    /// Whether the secondary API token with this digest hex is one of `app`'s now.
    func hasSecondaryToken(app: String, issuer: String) -> Bool {
        state.withLock { state in
            state.tokens.contains { $0.app.sameBytes(as: app) && CredentialIssuer.hex($0.digest) == issuer }
        }
    }

    /// Sessions of `app` created before this (Unix ms) are refused.
    func revokedBefore(app: String) -> Int64? {
        state.withLock { $0.revokedBefore[ExactID(app)] }
    }

    // MARK: This relay's changes (after the store committed them)

    func added(_ token: StoredAPIToken) {
        state.withLock { state in
            state.localChanges += 1
            state.tokens.append(Entry(app: token.app, digest: Array(token.digest)))
        }
    }

    func removed(_ token: StoredAPIToken) {
        let digest = Array(token.digest)
        state.withLock { state in
            state.localChanges += 1
            state.tokens.removeAll { $0.app.sameBytes(as: token.app) && $0.digest == digest }
        }
    }

    func revokedSessions(app: String, beforeMs: Int64) {
        state.withLock { state in
            state.localChanges += 1
            state.revokedBefore[ExactID(app), default: beforeMs] = max(state.revokedBefore[ExactID(app)] ?? beforeMs, beforeMs)
        }
    }

    // MARK: Reloading

    /// The watch heard a change of `app` (nil: of any app): one reload at a time, coalescing
    /// whatever arrives meanwhile.
    func changed(app: String?) {
        let start = state.withLock { state -> Bool in
            if let app { state.pendingApps.insert(app) } else { state.pendingAll = true }
            guard !state.reloading else { return false }
            state.reloading = true
            return true
        }
        // One task per burst of changes, never more than one at a time.
        if start { Task { await drain() } }
    }

    private func drain() async {
        var retry = Self.retryDelay
        while true {
            let next = state.withLock { state -> (all: Bool, apps: Set<String>)? in
                guard state.pendingAll || !state.pendingApps.isEmpty else {
                    state.reloading = false
                    return nil
                }
                defer {
                    state.pendingAll = false
                    state.pendingApps = []
                }
                return (state.pendingAll, state.pendingApps)
            }
            guard let next else { return }
            do {
                if next.all {
                    try await reload(app: nil)
                } else {
                    for app in next.apps { try await reload(app: app) }
                }
                state.withLock { $0.owedSince = nil }
                retry = Self.retryDelay
            } catch {
                DatabaseErrors.count(.credentials)
                logger.warning(
                    "could not reload API tokens and session revocations; retrying", metadata: ["error": "\(store.describe(error))"])
                // Still owed: tried again shortly (until then, past `maximumStaleness`, the view
                // answers `unverifiable` rather than as if current).
                let owed = state.withLock { state in
                    if state.owedSince == nil { state.owedSince = .now }
                    if next.all { state.pendingAll = true } else { state.pendingApps.formUnion(next.apps) }
                    // Past the short retries, the service's poll (every `pollInterval` while
                    // owed) carries on, so a store that is gone for good holds no loop here.
                    guard retry <= Self.pollInterval else {
                        state.reloading = false
                        return false
                    }
                    return true
                }
                guard owed else { return }
                try? await Task.sleep(for: retry)
                retry *= 2
            }
        }
    }

    /// Reads `app`'s tokens (nil: every app's) and every revocation, and applies them unless this
    /// relay changed something meanwhile (then reads again: the change is in the database).
    func reload(app: String?) async throws {
        for _ in 0..<3 {
            let (started, before) = (ContinuousClock.now, state.withLock { $0.localChanges })
            let tokens: [StoredAPIToken]
            if let app { tokens = try await store.apiTokens(app: app) } else { tokens = try await store.allAPITokens() }
            let revocations = try await store.sessionRevocations()
            let applied = state.withLock { state -> Bool in
                guard state.localChanges == before else { return false }
                let fresh = tokens.map { Entry(app: $0.app, digest: Array($0.digest)) }
                if let app {
                    state.tokens.removeAll { $0.app.sameBytes(as: app) }
                    state.tokens += fresh
                } else {
                    state.tokens = fresh
                    state.confirmedAt = max(state.confirmedAt, started)
                }
                state.revokedBefore = Dictionary(revocations.map { (ExactID($0.key), $0.value) }, uniquingKeysWith: max)
                return true
            }
            if applied { return }
        }
    }
}

extension CredentialDirectory: Service {
    /// The database check behind the watch: a reload every `pollInterval` while the watch is not
    /// hearing or a change it heard could not be read, every `hearingPollInterval` otherwise. Ends
    /// at shutdown.
    public func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let owed = state.withLock { $0.owedSince != nil }
            let interval = store.credentialWatch.isHearing && !owed ? Self.hearingPollInterval : Self.pollInterval
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            changed(app: nil)
        }
    }
}
