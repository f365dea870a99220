import ServiceLifecycle
import Synchronization

/// Reads the relay's counters once a minute (`CounterWindow`), for the overview's figures over
/// the last hour: the registry's counters only count up, so "in the last hour" is now minus an
/// hour ago. A `Service` of the relay while the console is on.
final class CounterHistory: Service, Sendable {
    /// The counters the overview subtracts (nothing else is kept).
    static let names: Set<String> = [
        OverviewFigures.pushes, OverviewFigures.acknowledgements, OverviewFigures.clicks, OverviewFigures.webhookEvents,
    ]
    static let span: Duration = .seconds(3600)
    static let interval: Duration = .seconds(60)

    private let window = Mutex(CounterWindow(span: CounterHistory.span))
    private let exposition: @Sendable () async -> String
    private let monotonic: @Sendable () -> Int64
    private let wall: @Sendable () -> Int64

    init(
        exposition: @escaping @Sendable () async -> String,
        monotonicMicros: @escaping @Sendable () -> Int64 = CredentialRateLimiter.monotonicMicros,
        wallMs: @escaping @Sendable () -> Int64
    ) {
        self.exposition = exposition
        monotonic = monotonicMicros
        wall = wallMs
    }

    /// Reads the counters now.
    func record() async {
        let samples = MetricSamples(exposition: await exposition(), keeping: Self.names)
        let reading = CounterWindow.Reading(atMicros: monotonic(), wallMs: wall(), samples: samples)
        window.withLock { $0.record(reading) }
    }

    /// The reading the overview subtracts now (nil: since the relay started).
    func baseline() -> CounterWindow.Reading? {
        let now = monotonic()
        return window.withLock { $0.baseline(nowMicros: now) }
    }

    func run() async throws {
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            await record()
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: Self.interval) }
            } catch {
                return
            }
        }
    }
}
