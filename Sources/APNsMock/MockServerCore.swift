import LogRedaction
import Foundation
import Logging
import NIOCore
import Synchronization
import MockSupport

/// The part of the server that connections share: configuration and the locked
/// ``MockServerState``. It exists from `init`, so faults and marks can be set before `start()`.
/// One lock acquisition per event keeps sink mode cheap; ECDSA verification and file writes
/// happen outside the lock.
final class MockServerCore: Sendable {
    let configuration: APNsMockConfiguration
    let logger: Logger
    private let state = Mutex(MockServerState())

    init(configuration: APNsMockConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Runs `body` under the lock, then resumes any waiter whose condition now holds.
    @discardableResult
    func withState<Result: Sendable>(_ body: (inout MockServerState) -> Result) -> Result {
        self.state.withLock { state in
            let result = body(&state)
            state.resumeSatisfiedWaiters()
            return result
        }
    }

    // MARK: Connections

    /// A TCP connection was accepted. Returns its number and whether a fault aborts its handshake.
    func connectionAccepted(_ channel: any Channel) -> (id: Int, abortHandshake: Bool) {
        self.withState { state in
            let id = state.connections.accept(channel)
            state.stats.connectionsAccepted += 1
            state.stats.connectionsOpen += 1
            let abort = state.faults.takeTLSHandshakeFailure()
            if abort { state.stats.tlsHandshakesFailed += 1 }
            return (id, abort)
        }
    }

    func connectionClosed(id: Int) {
        self.withState { state in
            if state.connections.close(id: id) {
                state.stats.connectionsOpen -= 1
            }
        }
    }

    func tlsHandshakeFailed() {
        self.withState { state in state.stats.tlsHandshakesFailed += 1 }
    }

    func goAwaySent() {
        self.withState { state in state.stats.goAwaysSent += 1 }
    }

    func connectionDropped() {
        self.withState { state in state.stats.connectionsDropped += 1 }
    }

    func connectionSilenced() {
        self.withState { state in state.stats.connectionsSilenced += 1 }
    }

    /// SETTINGS_MAX_CONCURRENT_STREAMS for a connection: a fault's override, else 1 while warming
    /// up, else the configured value.
    func maxConcurrentStreams(warmingUp: Bool) -> Int {
        let override = self.state.withLock { $0.faults.maxConcurrentStreams }
        return override ?? (warmingUp ? 1 : self.configuration.maxConcurrentStreams)
    }

    // MARK: Streams

    /// A new stream's HEADERS arrived on a connection that already has `openOnConnection` streams.
    func streamArrived(openOnConnection: Int) -> (goAway: FaultBook.GoAwayTrigger?, disposition: FaultBook.StreamDisposition) {
        self.withState { state in
            state.stats.requestsReceived += 1
            var decision: (goAway: FaultBook.GoAwayTrigger?, disposition: FaultBook.StreamDisposition) = (nil, .normal)
            if state.faults.hasTrafficFaults {
                decision = state.faults.streamOpened()
            }
            if case .beforeThisStream = decision.goAway { return decision }
            if decision.disposition == .refuse {
                state.stats.streamsRefused += 1
                return decision
            }
            state.stats.streamsOpen += 1
            state.stats.maxStreamsConcurrentlyOpenSeen = max(
                state.stats.maxStreamsConcurrentlyOpenSeen,
                state.stats.streamsOpen
            )
            state.stats.maxStreamsConcurrentlyOpenOnOneConnection = max(
                state.stats.maxStreamsConcurrentlyOpenOnOneConnection,
                openOnConnection + 1
            )
            return decision
        }
    }

    /// A request is complete: what the faults say, and how long to delay its answer.
    func requestCompleted() -> (disposition: FaultBook.RequestDisposition, delayMilliseconds: Int?) {
        self.state.withLock { state in
            let disposition = state.faults.hasTrafficFaults ? state.faults.requestCompleted() : .normal
            return (disposition, state.faults.delayMilliseconds)
        }
    }

    /// Streams that were counted open are gone; `status` is the answer sent on one, if any.
    func streamsFinished(count: Int = 1, answeredWith status: Int?) {
        guard count > 0 else { return }
        self.withState { state in
            state.stats.streamsOpen -= count
            if let status { state.stats.responsesByStatus[status, default: 0] += 1 }
        }
    }

    // MARK: Provider tokens and device tokens

    /// Judges a JWT: verified (cached by string), not declared expired, `iat` within bounds.
    func judgeProviderToken(_ jwt: Substring, now: Date, verifier: ProviderTokenVerifier) -> ProviderTokenVerdict {
        let key = String(jwt)
        enum Lookup {
            case expiredByFault
            case cached(MockServerState.CachedTokenCheck)
            case unknown
        }
        let lookup: Lookup = self.state.withLock { state in
            if state.expiredProviderTokens.contains(key) { return .expiredByFault }
            if let check = state.tokenChecks[key] { return .cached(check) }
            return .unknown
        }
        let check: MockServerState.CachedTokenCheck
        switch lookup {
        case .expiredByFault:
            return .expired
        case .cached(let cached):
            check = cached
        case .unknown:
            switch verifier.verify(jwt) {
            case .success(let token): check = .verified(token)
            case .failure(let rejection):
                self.logger.debug(
                    "provider token refused",
                    metadata: ["jwt": "\(Redaction.redact(key))", "why": "\(rejection)"]
                )
                check = .rejected(rejection)
            }
            self.state.withLock { state in
                if state.tokenChecks.count >= MockServerState.tokenCacheLimit { state.tokenChecks.removeAll() }
                state.tokenChecks[key] = check
            }
        }
        guard case .verified(let token) = check else { return .invalid }
        switch ProviderTokenVerifier.judgeAge(issuedAt: token.issuedAt, now: Int64(now.timeIntervalSince1970)) {
        case .expired:
            return .expired
        case .inFuture:
            return .invalid
        case .fresh:
            self.withState { state in
                if state.acceptedProviderTokens.insert(key).inserted {
                    state.stats.distinctProviderTokensAccepted = state.acceptedProviderTokens.count
                }
            }
            return .fresh
        }
    }

    /// The answer a marked device token gets, if it is marked.
    /// `liveActivityEvent`: the `aps.event` of a Live Activity push, nil for any other push.
    func deviceTokenAnswer(_ token: Substring, liveActivityEvent: String? = nil) -> APNsErrorAnswer? {
        let key = token.lowercased()
        return self.state.withLock { state in
            if state.badTokens.contains(key) { return .badDeviceToken }
            if let kind = state.liveActivityTokens[key], !kind.takes(liveActivityEvent) { return .badDeviceToken }
            if let environment = state.tokenEnvironments[key], environment != self.configuration.environment { return .badDeviceToken }
            if let since = state.unregisteredTokens[key] { return .unregistered(since: since) }
            return nil
        }
    }

    // MARK: Recording

    var recordsNotifications: Bool { self.configuration.recordInMemory || self.configuration.recordFile != nil }

    func record(_ notification: RecordedNotification, to file: JSONLinesFile?) {
        if self.configuration.recordInMemory {
            self.withState { state in state.notifications.append(notification) }
        }
        if let file, let error = file.append(notification) {
            self.logger.error("cannot append to record file", metadata: ["path": "\(file.path)", "error": "\(error)"])
        }
    }

    // MARK: Control (public API)

    var stats: APNsMockStats { self.state.withLock { $0.stats } }
    var notifications: [RecordedNotification] { self.state.withLock { $0.notifications.all } }
    var activeFaults: [APNsMockFault] { self.state.withLock { $0.faults.active } }

    func addFault(_ fault: APNsMockFault) {
        let channels: [any Channel] = self.withState { state in
            if case .expireProviderTokens = fault {
                state.expiredProviderTokens.formUnion(state.acceptedProviderTokens)
                return []
            }
            let before = state.faults.maxConcurrentStreams
            state.faults.arm(fault)
            return before != state.faults.maxConcurrentStreams ? state.connections.channels : []
        }
        self.logger.info("fault armed", metadata: ["fault": "\(fault)"])
        Self.announceSettingsChange(to: channels)
    }

    func clearFaults() {
        let channels: [any Channel] = self.withState { state in
            let hadOverride = state.faults.maxConcurrentStreams != nil
            state.faults.clear()
            return hadOverride ? state.connections.channels : []
        }
        Self.announceSettingsChange(to: channels)
    }

    private static func announceSettingsChange(to channels: [any Channel]) {
        for channel in channels {
            channel.pipeline.fireUserInboundEventTriggered(MockConnectionEvent.maxConcurrentStreamsChanged)
        }
    }

    func markUnregistered(token: String, at date: Date) {
        self.withState { state in state.unregisteredTokens[token.lowercased()] = date }
    }

    func markBadToken(_ token: String) {
        self.withState { state in _ = state.badTokens.insert(token.lowercased()) }
    }

    func markEnvironment(of token: String, _ environment: APNsMockConfiguration.Environment) {
        self.withState { state in state.tokenEnvironments[token.lowercased()] = environment }
    }

    /// Reads or changes the broadcast channels under the state's lock.
    func channels<T: Sendable>(_ body: (inout BroadcastChannels) -> T) -> T {
        self.withState { state in body(&state.channels) }
    }

    func markLiveActivityToken(_ token: String, _ kind: LiveActivityTokenKind) {
        self.withState { state in state.liveActivityTokens[token.lowercased()] = kind }
    }

    /// Forgets notifications, faults, marked tokens, token checks and counters (live gauges stay).
    func reset() {
        let channels: [any Channel] = self.withState { state in
            let hadOverride = state.faults.maxConcurrentStreams != nil
            state.notifications.removeAll()
            state.faults.clear()
            state.unregisteredTokens.removeAll()
            state.badTokens.removeAll()
            state.tokenEnvironments.removeAll()
            state.liveActivityTokens.removeAll()
            state.channels.removeAll()
            state.tokenChecks.removeAll()
            state.acceptedProviderTokens.removeAll()
            state.expiredProviderTokens.removeAll()
            var stats = APNsMockStats()
            stats.connectionsOpen = state.stats.connectionsOpen
            stats.streamsOpen = state.stats.streamsOpen
            state.stats = stats
            return hadOverride ? state.connections.channels : []
        }
        Self.announceSettingsChange(to: channels)
    }

    /// Marks the server shut down, fails every waiter, and hands back the open connections.
    func shutDown() -> [any Channel] {
        self.state.withLock { state in
            state.notifications.fail(with: APNsMockError.shutDown)
            state.statsWaiters.fail(with: APNsMockError.shutDown)
            return state.connections.channels
        }
    }

    // MARK: Waiting

    func waitForNotifications(count: Int, timeout: Duration) async throws -> [RecordedNotification] {
        try await Recordings.wait(
            count: count, of: "notifications", timeout: timeout, timedOut: APNsMockError.timedOut
        ) { body in
            self.state.withLock { body(&$0.notifications) }
        }
    }

    func waitForStats(
        timeout: Duration,
        where predicate: @escaping @Sendable (APNsMockStats) -> Bool
    ) async throws -> APNsMockStats {
        try await ConditionWaiters.wait(until: predicate, timeout: timeout) {
            APNsMockError.timedOut(waitingFor: "a stats condition", after: timeout)
        } locked: { body in
            self.state.withLock { body(&$0.statsWaiters, $0.stats) }
        }
    }
}
