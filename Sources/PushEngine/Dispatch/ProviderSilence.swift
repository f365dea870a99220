import PushCore
import Synchronization

/// How long each app's provider has answered nothing while pushes waited on it: the dispatcher
/// counts every send and every ending, and `/ready` and `pushrelay_provider_silent_seconds` read
/// it. A connection that goes silent is replaced within seconds (`ConnectionLiveness`); a provider
/// silent for long is down, or unreachable from here, whichever connection is tried.
package final class ProviderSilence: Sendable {
    private let ledger = Mutex(ProviderSilenceLedger())

    func sent(app: String, provider: PushProvider, nowMs: Int64) {
        ledger.withLock { $0.sent(.init(app: app, provider: provider), nowMs: nowMs) }
    }

    func ended(app: String, provider: PushProvider, answered: Bool, nowMs: Int64) {
        ledger.withLock { $0.ended(.init(app: app, provider: provider), answered: answered, nowMs: nowMs) }
    }

    /// Milliseconds each (app, provider) that has sent anything has been silent (0: answering, or
    /// nothing waiting).
    package func silentMs(nowMs: Int64) -> [ProviderSilenceLedger.Key: Int64] {
        ledger.withLock { $0.silentMs(nowMs: nowMs) }
    }
}

/// The decisions of `ProviderSilence`, without a lock or a clock.
package struct ProviderSilenceLedger: Sendable {
    package struct Key: Sendable, Hashable {
        package var app: String
        package var provider: PushProvider
    }

    private struct Entry {
        var inFlight = 0
        /// Since when nothing was heard: the last answer, or when pushes began to wait.
        var quietSinceMs: Int64 = 0

        mutating func started(nowMs: Int64) {
            if inFlight == 0 { quietSinceMs = nowMs }
            inFlight += 1
        }
    }

    private var entries: [Key: Entry] = [:]

    mutating func sent(_ key: Key, nowMs: Int64) {
        entries[key, default: Entry()].started(nowMs: nowMs)
    }

    /// A send ended: `answered` when the provider gave an answer (any status).
    mutating func ended(_ key: Key, answered: Bool, nowMs: Int64) {
        guard var entry = entries[key] else { return }
        entry.inFlight = max(0, entry.inFlight - 1)
        if answered { entry.quietSinceMs = nowMs }
        entries[key] = entry
    }

    package func silentMs(nowMs: Int64) -> [Key: Int64] {
        entries.mapValues { $0.inFlight > 0 ? max(0, nowMs - $0.quietSinceMs) : 0 }
    }
}
