import ArgumentParser
import Foundation
import Logging

/// What both mock executables do around their server: log to stderr at a level, announce the
/// listening line on stdout, and shut down at SIGINT or SIGTERM.
package enum MockProcess {
    /// Logs to standard error at `level`.
    package static func bootstrapLogging(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// Starts the server, writes `listening` (given the started server's line) to stdout, waits for
    /// SIGINT or SIGTERM, then shuts down. The signal handlers are in place before the start.
    package static func serve(
        logger: Logger, start: () async throws -> String, shutdown: () async throws -> Void
    ) async throws {
        let signals = SignalWaiter(signals: [SIGINT, SIGTERM])
        let line = try await start()
        // Written straight to the descriptor (no stdio buffering): scripts wait for this line.
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
        let signal = await signals.next()
        logger.info("shutting down", metadata: ["signal": "\(signal)"])
        try await shutdown()
    }
}

/// `--log-level trace|debug|info|notice|warning|error|critical` in both mocks.
extension Logger.Level: @retroactive ExpressibleByArgument {}
