import Foundation
import Logging
import NIOCore
import Synchronization

/// What a request-level mock's connections share: its `MockState` under one lock, what every such
/// mock does to it alike (connections, counters, access tokens, records and the waits on them),
/// its clock and its record file, written outside the lock (the file has its own). It exists from
/// the server's `init`, so faults can be armed before `start()`.
package final class SharedMockState<State: MockState>: Sendable {
    package let settings: MockServerSettings
    package let logger: Logger
    package let recordFile: JSONLinesFile?
    private let state: Mutex<State>

    /// Opens the record file, if one is set, for appending.
    package init(settings: MockServerSettings, logger: Logger) throws(State.Failure) {
        self.settings = settings
        self.logger = logger
        do {
            recordFile = try settings.recordFile.map { try JSONLinesFile(path: $0) }
        } catch {
            throw .cannotOpenRecordFile(path: settings.recordFile ?? "", detail: "\(error)")
        }
        var initial = State()
        initial.records = Recordings(keeping: settings.recordInMemory)
        state = Mutex(initial)
    }

    package func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { state in body(&state) }
    }

    /// Unix seconds now, on the configured clock.
    package var now: Int64 { Int64(settings.now().timeIntervalSince1970) }
    package var nowMs: Int64 { Int64(settings.now().timeIntervalSince1970 * 1000) }

    // MARK: Connections

    /// Counts and registers an accepted connection; returns its number.
    package func connectionAccepted(_ channel: any Channel) -> Int {
        withLock { state in
            state.stats.connectionsAccepted += 1
            state.stats.connectionsOpen += 1
            return state.connections.accept(channel)
        }
    }

    package func connectionClosed(id: Int) {
        withLock { state in
            if state.connections.close(id: id) { state.stats.connectionsOpen -= 1 }
        }
    }

    /// Whether the connection of the request that just arrived goes silent: `take` spends the
    /// mock's `silent_connections` fault if one is armed. A silenced connection is counted.
    package func takeSilence(_ take: (inout State) -> Bool) -> Bool {
        withLock { state in
            guard take(&state) else { return false }
            state.stats.connectionsSilenced += 1
            return true
        }
    }

    // MARK: Access tokens

    /// Issues a new access token (`prefix` then random hex) for the configured lifetime, counted.
    package func issueAccessToken(prefix: String) -> String {
        let token = AccessTokenLedger.mint(prefix: prefix)
        let (now, lifetime) = (now, settings.accessTokenLifetimeSeconds)
        withLock { state in
            state.accessTokens.issue(token, now: now, lifetimeSeconds: lifetime)
            state.stats.tokensIssued += 1
        }
        return token
    }

    /// Counts a token request refused, and hands back its answer.
    package func refusedTokenRequest<Answer>(_ answer: Answer) -> Answer {
        withLock { $0.stats.tokenRequestsRefused += 1 }
        return answer
    }

    /// Every access token issued so far expires now.
    package func expireAccessTokens() {
        let now = now
        withLock { $0.accessTokens.expireAll(now: now) }
    }

    // MARK: Records

    package var stats: State.Stats { withLock { $0.stats } }
    package var records: [State.Record] { withLock { $0.records.all } }

    /// Appends `records` to the record file, if any. A failure is logged, not thrown: a full disk
    /// must not take the mock down mid-test.
    package func writeToFile(_ records: some Sequence<State.Record>) {
        guard let recordFile else { return }
        for record in records {
            if let error = recordFile.append(record) {
                logger.error("cannot append to the record file", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Waits until at least `count` records are kept and returns them all; throws `timedOut` at
    /// the deadline.
    package func waitForRecords(count: Int, of noun: String, timeout: Duration) async throws -> [State.Record] {
        try await Recordings.wait(count: count, of: noun, timeout: timeout) { what, after in
            State.Failure.timedOut(waitingFor: what, after: after)
        } locked: { body in
            self.state.withLock { body(&$0.records) }
        }
    }

    // MARK: Control

    /// Forgets records, faults and marked tokens, and zeroes the counters but the live gauge.
    package func reset() {
        withLock { state in
            state.records.removeAll()
            state.forgetFaultsAndMarks()
            state.stats = state.stats.afterReset()
        }
    }

    /// Fails every pending and later wait with `shutDown`, and hands back the open connections.
    package func shutDown() -> [any Channel] {
        withLock { state in
            state.records.fail(with: State.Failure.shutDown)
            return state.connections.channels
        }
    }
}
