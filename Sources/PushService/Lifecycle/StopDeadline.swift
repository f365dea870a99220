import Foundation
import Logging
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// The stop's last resort. Every step of a stop has a bound of its own but one: the HTTP server
/// waits for the requests under way, and a webhook waiting for a database that stopped answering
/// (a hung PostgreSQL server: the connection stays open, the query never returns) waits with it.
/// Once a graceful shutdown begins this arms a timer on a thread of its own (Swift's pool may be
/// what is stuck); if the process still runs when it fires, it logs why and exits 1, as a kill
/// would end it. Nothing is lost that way: every event answered 200 is in the store, and what was
/// under way is resumed at the next start. Set below systemd's TimeoutStopSec, so the journal says
/// what held the stop instead of only that systemd killed it.
public struct StopDeadline: Service {
    public let limit: Duration
    private let logger: Logger

    public init(limit: Duration, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    public func run() async throws {
        do { try await gracefulShutdown() } catch { return }
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        let logger = logger
        let limit = limit
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            logger.critical(
                "the stop did not finish in time (a request or the database is not answering); exiting now, unfinished work resumes at the next start",
                metadata: ["limit": "\(limit)"])
            _exit(1)
        }
    }
}
