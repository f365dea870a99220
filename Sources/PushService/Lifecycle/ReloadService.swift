import ServiceLifecycle
import UnixSignals

/// Calls `reload` on every SIGHUP until graceful shutdown begins.
public struct ReloadService: Service {
    private let reload: @Sendable () async -> Void

    public init(reload: @escaping @Sendable () async -> Void) { self.reload = reload }

    public func run() async throws {
        let signals = await UnixSignalsSequence(trapping: .sighup)
        for await _ in signals.cancelOnGracefulShutdown() {
            await reload()
        }
    }
}
