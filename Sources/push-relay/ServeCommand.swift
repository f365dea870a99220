import ArgumentParser
import Foundation
import Logging
import PushService

/// `push-relay serve --config PATH`: runs the relay until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the relay: the Sendbird-compatible REST API (and, later, webhook intake and delivery)."
    )

    @Option(name: .long, help: "Path of the YAML configuration file.")
    var config: String

    @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    func run() async throws {
        let configuration: RelayConfiguration
        do {
            configuration = try RelayConfiguration.load(path: config)
        } catch {
            // Start-up stops here with a message naming the key; exit code 78 is EX_CONFIG.
            FileHandle.standardError.write(Data("push-relay: \(error)\n".utf8))
            throw ExitCode(78)
        }
        var logger = Logger(label: "push-relay")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        logger.info("starting", metadata: [
            "config": .string(config),
            "database": .string(configuration.database.path),
            "apps": .string(configuration.apps.map(\.appID).joined(separator: ",")),
        ])
        let service: RelayService
        do {
            service = try RelayService.open(configuration: configuration, logger: logger)
        } catch {
            FileHandle.standardError.write(Data("push-relay: \(error)\n".utf8))
            throw ExitCode(74)  // EX_IOERR: the database could not be opened.
        }
        let host = configuration.listen.host.contains(":") ? "[\(configuration.listen.host)]" : configuration.listen.host
        let app = service.makeApplication(onListening: { port in
            // One line on stdout that scripts and tests wait for; the real port when 0 was asked.
            FileHandle.standardOutput.write(Data("push-relay listening on http://\(host):\(port)\n".utf8))
        })
        try await app.runService()
    }
}
