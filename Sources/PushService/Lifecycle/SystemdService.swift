import Logging
import ServiceLifecycle

/// Runs beside the HTTP server: pings the systemd watchdog every `WATCHDOG_USEC / 2` and says
/// `STOPPING=1` as soon as graceful shutdown begins (SIGTERM / SIGINT).
/// `READY=1` is sent by whoever knows the listener is up (`RelayApplication`).
public struct SystemdService: Service {
    public let notifier: SystemdNotifier

    public init(notifier: SystemdNotifier) { self.notifier = notifier }

    public func run() async throws {
        guard notifier.isEnabled else {
            await Self.waitForShutdown()
            return
        }
        let interval = notifier.watchdogInterval.map { $0 / 2 }
        await withTaskGroup(of: Void.self) { group in
            if let interval {
                group.addTask {
                    while !Task.isCancelled {
                        notifier.watchdog()
                        do { try await Task.sleep(for: interval) } catch { return }
                    }
                }
            }
            await Self.waitForShutdown()
            notifier.stopping(status: "stopping")
            group.cancelAll()
        }
    }

    /// Returns when graceful shutdown is triggered (or the task is cancelled).
    private static func waitForShutdown() async {
        try? await gracefulShutdown()
    }
}
