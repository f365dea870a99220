import ServiceLifecycle
import UnixSignals

/// Calls `reload` on every SIGHUP until graceful shutdown begins.
public struct ReloadService: Service {
    private let signals: UnixSignalsSequence
    private let reload: @Sendable () async -> Void

    /// Traps SIGHUP now, so a SIGHUP arriving before `run()` starts (e.g. right after READY=1)
    /// is queued instead of killing the process with the default action.
    public init(reload: @escaping @Sendable () async -> Void) async {
        signals = await UnixSignalsSequence(trapping: .sighup)
        self.reload = reload
    }

    public func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            await reload()
        }
    }
}
