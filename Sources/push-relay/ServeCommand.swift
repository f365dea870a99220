import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import PushEngine
import PushService

#if canImport(Glibc)
    import Glibc
#endif

/// `push-relay serve --config PATH`: runs the relay until SIGTERM or SIGINT (exit 0 after a
/// graceful stop); SIGHUP reloads every app's provider settings, credentials and templates.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the relay: the Sendbird-compatible REST API, webhook intake and delivery to APNs, FCM and HMS.",
        discussion: """
            Exit status: 0 after SIGTERM or SIGINT; 78 invalid configuration or credentials; 74 \
            the database cannot be opened; 75 another relay serves the same SQLite file (its \
            PATH.lock is held); 71 listen cannot be bound (the port taken, the address not this \
            host's).
            """
    )

    @Option(name: .long, help: "Path of the YAML configuration file.")
    var config: String

    @Option(name: .long, help: "Log level, overriding log_level in the file: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    func validate() throws {
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        // First of all: every file the relay creates (the database, its WAL, the lock) is its own.
        umask(0o077)
        let configuration: RelayConfiguration
        do {
            configuration = try RelayConfiguration.load(path: config)
        } catch {
            // Start-up stops here with a message naming the key; exit code 78 is EX_CONFIG.
            FileHandle.standardError.write(Data("push-relay: \(error)\n".utf8))
            throw ExitCode(78)
        }
        let level = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? configuration.logLevel
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
        // One registry for the process: the pipeline's swift-metrics counters and the runtime's
        // gauges land in it, and GET /metrics renders it.
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = DeliveryMetrics.durationBuckets
        MetricsSystem.bootstrap(factory)

        var logger = Logger(label: "push-relay")
        logger.logLevel = level
        logger.info(
            "starting",
            metadata: [
                "version": .string(version),
                "config": .string(config),
                "database": .string(configuration.database.location),
                "apps": .string(configuration.apps.map(\.appID).joined(separator: ",")),
            ])
        for warning in configuration.warnings { logger.warning("\(warning)") }
        // Before the store opens: a second relay on the same SQLite file stops here, before its
        // start puts the first one's in-flight pushes back to pending (ServeLock).
        var lock: ServeLock?
        if let path = configuration.database.path {
            do {
                lock = try ServeLock.acquire(database: path)
            } catch {
                FileHandle.standardError.write(Data("push-relay: \(error)\n".utf8))
                // EX_TEMPFAIL (systemd tries again: the other may be on its way out); EX_IOERR.
                throw ExitCode(error.isHeld ? 75 : 74)
            }
        }
        let relay: RelayApplication
        do {
            relay = try await RelayApplication.build(
                configuration: configuration, configurationPath: config, logger: logger,
                registry: registry)
        } catch let error as RuntimeError {
            FileHandle.standardError.write(Data("push-relay: \(error)\n".utf8))
            throw ExitCode(78)
        } catch {
            FileHandle.standardError.write(Data("push-relay: \(error)\n".utf8))
            throw ExitCode(74)  // EX_IOERR: the database could not be opened.
        }
        let host = configuration.listen.hostForURL
        do {
            try await relay.run { port in
                // One line on stdout that scripts and tests wait for; the real port when 0 was asked.
                FileHandle.standardOutput.write(Data("push-relay listening on http://\(host):\(port)\n".utf8))
            }
        } catch let error as ListenError {
            FileHandle.standardError.write(Data("push-relay: \(error)\n".utf8))
            throw ExitCode(71)  // EX_OSERR
        }
        withExtendedLifetime(lock) {}
    }
}
