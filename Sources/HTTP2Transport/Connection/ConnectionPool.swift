import Foundation
import Synchronization

/// The connections of one client (one credential on one endpoint): spreads requests over them,
/// replaces dead ones with backoff, and moves requests that a connection could not send.
final class ConnectionPool: ConnectionDelegate, Sendable {
    private let configuration: TransportConfiguration
    private let tls: TLSContext

    private struct State {
        var slots: [HTTP2Connection?]
        /// Every connection whose thread is still running, including ones draining after GOAWAY.
        var live: [Int: HTTP2Connection] = [:]
        var nextID = 1
        var consecutiveConnectFailures = 0
        var isShutdown = false
        var rotation = 0
        var shutdownWaiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(configuration: TransportConfiguration, tls: TLSContext) {
        self.configuration = configuration
        self.tls = tls
        state = Mutex(State(slots: Array(repeating: nil, count: configuration.connections)))
    }

    /// Below this many requests in flight, the first open connection (in slot order) takes the
    /// next request even if another has fewer: an event's pushes then leave in one write, with one
    /// wake-up of one connection's thread and their answers handled together, instead of spread
    /// over every connection at a light load. Past it, the least loaded connection.
    static let fillLoad = 32

    /// Places a request on the first open connection below `fillLoad`, else on the least loaded
    /// usable one, opening connections as needed.
    func dispatch(_ request: PendingRequest) {
        while !request.isCompleted {
            let chosen: HTTP2Connection? = state.withLock { s in
                guard !s.isShutdown else { return nil }
                var best: HTTP2Connection?
                var bestScore = Int.max
                var filling: (slot: Int, connection: HTTP2Connection)?
                let n = s.slots.count
                s.rotation &+= 1
                for k in 0..<n {
                    let i = (s.rotation + k) % n
                    if s.slots[i] == nil || !s.slots[i]!.isAccepting {
                        s.slots[i] = startConnection(&s)
                    }
                    guard let c = s.slots[i] else { continue }
                    // Prefer connections that are up; one still connecting gets work only when
                    // no open connection exists.
                    let maxStreams = c.maxStreams.load(ordering: .relaxed)
                    let ready = maxStreams > 0
                    let load = c.load.load(ordering: .relaxed)
                    // (Never past what the server lets it have in flight: the rest would wait there.)
                    if ready, load < min(Self.fillLoad, maxStreams), i < filling?.slot ?? n { filling = (i, c) }
                    let score = load + (ready ? 0 : 1 << 40)
                    if score < bestScore {
                        best = c
                        bestScore = score
                    }
                }
                return filling?.connection ?? best
            }
            guard let chosen else {
                let isShutdown = state.withLock { $0.isShutdown }
                request.complete(
                    .failure(
                        isShutdown
                            ? .shutdown
                            : .connectFailed("cannot open a connection: \(Socket.errnoString())")))
                return
            }
            if chosen.enqueue(request) { return }
        }
    }

    private func startConnection(_ s: inout State) -> HTTP2Connection? {
        guard let connection = HTTP2Connection(id: s.nextID) else { return nil }
        s.nextID += 1
        s.live[connection.id] = connection
        let delay = backoff(afterFailures: s.consecutiveConnectFailures)
        let configuration = configuration
        let tls = tls
        let thread = Thread { [self] in
            ConnectionLoop(
                handle: connection, configuration: configuration, tls: tls, delegate: self,
                startDelay: delay
            ).run()
        }
        thread.name = "\(configuration.peerName.lowercased())-connection-\(connection.id)"
        thread.start()
        return connection
    }

    private func backoff(afterFailures failures: Int) -> Duration {
        guard failures > 0 else { return .zero }
        let (minimum, maximum) = configuration.reconnectBackoff
        let exponential = minimum * (1 << min(failures - 1, 20))
        let capped = min(exponential, maximum)
        // Full jitter on the upper half keeps many relays from reconnecting in lockstep.
        return capped / 2 + capped / 2 * Double.random(in: 0...1)
    }

    /// Retires connection `id` (`HTTP2Connection.requestRetire`) if it is still open and started
    /// on an older token than `tokenGeneration`; the next request finds its slot free and opens
    /// another. A connection refusing the token it started on is left alone: another would fare
    /// no better, and retiring it would open a connection per refusal. True when retired.
    func retire(connection id: Int, olderThanTokenGeneration tokenGeneration: UInt64, reason: String) -> Bool {
        guard let connection = state.withLock({ $0.live[id] }) else { return false }
        let first = connection.firstTokenGeneration.load(ordering: .relaxed)
        guard first != 0, first < tokenGeneration else { return false }
        connection.requestRetire(reason: reason)
        return true
    }

    // MARK: ConnectionDelegate

    func resend(_ requests: [PendingRequest], from connection: HTTP2Connection, reason: String) {
        for request in requests where !request.isCompleted {
            if request.resends.add(1, ordering: .relaxed).newValue > configuration.maximumResends {
                request.complete(.failure(.goAway(reason: "request was refused \(configuration.maximumResends) times (last: \(reason))")))
            } else {
                dispatch(request)
            }
        }
    }

    func connectionDidConnect(_ connection: HTTP2Connection) {
        state.withLock { $0.consecutiveConnectFailures = 0 }
    }

    func connectionDidClose(_ connection: HTTP2Connection, error: HTTP2TransportError?, unsent: [PendingRequest]) {
        var connectError: HTTP2TransportError?
        if let error {
            switch error {
            case .connectFailed, .alpnNotNegotiated: connectError = error
            default: break
            }
        }
        let (isShutdown, waiters): (Bool, [CheckedContinuation<Void, Never>]) = state.withLock { s in
            s.live[connection.id] = nil
            for i in s.slots.indices where s.slots[i] === connection { s.slots[i] = nil }
            if connectError != nil { s.consecutiveConnectFailures += 1 }
            var waiters: [CheckedContinuation<Void, Never>] = []
            if s.isShutdown, s.live.isEmpty { swap(&waiters, &s.shutdownWaiters) }
            return (s.isShutdown, waiters)
        }
        if let connectError {
            configuration.eventHandler?(.connectFailed(connection: connection.id, error: connectError.description))
            configuration.logger.warning("cannot connect to \(configuration.peerName)", metadata: ["error": "\(connectError)"])
        }
        for request in unsent where !request.isCompleted {
            if isShutdown {
                request.complete(.failure(.shutdown))
            } else if let connectError {
                // A request survives a couple of failed connects (another may succeed), then
                // fails fast instead of waiting out its deadline against a dead endpoint.
                if case .alpnNotNegotiated = connectError {
                    request.complete(.failure(connectError))
                } else if request.connectFailures.add(1, ordering: .relaxed).newValue >= 3 {
                    request.complete(.failure(connectError))
                } else {
                    dispatch(request)
                }
            } else {
                dispatch(request)
            }
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: Shutdown and statistics

    /// Stops taking requests, lets in-flight streams finish (bounded), closes every connection.
    func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let connections: [HTTP2Connection]? = state.withLock { s in
                s.isShutdown = true
                if s.live.isEmpty { return nil }
                s.shutdownWaiters.append(continuation)
                return Array(s.live.values)
            }
            guard let connections else {
                continuation.resume()
                return
            }
            for c in connections { c.requestShutdown() }
        }
    }

    var statistics: TransportStatistics {
        state.withLock { s in
            var stats = TransportStatistics()
            for c in s.live.values {
                stats.connections += 1
                let limit = c.maxStreams.load(ordering: .relaxed)
                if limit > 0 { stats.readyConnections += 1 }
                stats.streamsInFlight += c.streamsInFlight.load(ordering: .relaxed)
                stats.queued += max(0, c.load.load(ordering: .relaxed) - c.streamsInFlight.load(ordering: .relaxed))
                stats.maxConcurrentStreams.append(limit)
            }
            return stats
        }
    }
}
