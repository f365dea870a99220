import ArgumentParser
import FCMMock
import Foundation
import Logging
import MockSupport

/// `fcm-mock`: runs `FCMMockServer` until SIGINT or SIGTERM.
@main
struct FCMMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fcm-mock",
        abstract: "A mock FCM HTTP v1 API and OAuth token endpoint (HTTP/2 over TLS) for tests and demos."
    )

    @OptionGroup var listener: MockListenerOptions

    @Option(help: "TLS port for messages:send and /token (0 = ephemeral).")
    var port = 2198

    @Option(
        name: .customLong("service-account"),
        help: "The service account JSON key whose assertions /token accepts; messages go to its project_id.")
    var serviceAccount = "certs/dev/fcm-service-account.json"

    @Option(help: "Append one JSON line per accepted message to this file.")
    var record: String?

    @Option(name: .customLong("token-lifetime"), help: "Seconds an issued access token lives.")
    var tokenLifetime = 3599

    @Option(name: .customLong("max-streams"), help: "SETTINGS_MAX_CONCURRENT_STREAMS per connection.")
    var maxStreams = 100

    func validate() throws {
        guard maxStreams > 0 else { throw ValidationError("--max-streams must be positive") }
        guard tokenLifetime > 0 else { throw ValidationError("--token-lifetime must be positive") }
    }

    func run() async throws {
        MockProcess.bootstrapLogging(level: listener.logLevel)
        let logger = Logger(label: "fcm-mock")
        let configuration = FCMMockConfiguration(
            host: listener.host, port: port, tlsCertificatePath: listener.cert, tlsKeyPath: listener.key,
            serviceAccountPath: serviceAccount,
            recordFile: record, recordInMemory: listener.adminPort != nil, accessTokenLifetimeSeconds: tokenLifetime,
            maxConcurrentStreams: maxStreams, adminPort: listener.adminPort, eventLoopThreads: listener.threads)
        let server = try FCMMockServer(configuration: configuration, logger: logger)
        try await MockProcess.serve(logger: logger) {
            try await server.start()
            var line = "fcm-mock listening on https://\(listener.host):\(server.port) (project \(server.projectID))"
            if let adminPort = server.adminPort { line += ", admin on http://127.0.0.1:\(adminPort)" }
            return line
        } shutdown: {
            try await server.shutdown()
        }
    }
}
