import APNsMock
import ArgumentParser
import Foundation
import Logging
import MockSupport

/// `apns-mock`: runs ``APNsMockServer`` until SIGINT or SIGTERM.
@main
struct APNsMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-mock",
        abstract: "A mock APNs provider API (HTTP/2 over TLS) for tests, demos and benchmarks."
    )

    @OptionGroup var listener: MockListenerOptions

    @Option(help: "TLS port (0 = ephemeral).")
    var port = 2197

    @Option(name: .customLong("client-ca"), help: "PEM CA for client certificates (enables certificate authentication).")
    var clientCA: String?

    @Flag(name: .customLong("require-client-cert"), help: "With --client-ca: refuse connections without a client certificate.")
    var requireClientCertificate = false

    @Option(
        name: .customLong("jwt-key"),
        help: "Provider-token key as KEYID=PATH to a PEM public key (repeatable; default DEVKEY1234=certs/dev/AuthKey_DEVKEY1234.pub.pem)."
    )
    var jwtKeys: [String] = []

    @Option(name: .customLong("team-id"), help: "Required JWT iss (team ID).")
    var teamID: String?

    @Option(help: "validating or sink.")
    var mode: APNsMockConfiguration.Mode = .validating

    @Option(help: "production or development (a 200 also carries apns-unique-id).")
    var environment: APNsMockConfiguration.Environment = .production

    @Option(help: "Append one JSON line per accepted notification to this file.")
    var record: String?

    @Option(name: .customLong("max-streams"), help: "SETTINGS_MAX_CONCURRENT_STREAMS once a connection is usable.")
    var maxStreams = 1000

    @Flag(name: .customLong("no-warmup"), help: "Do not start token-auth connections at MAX_CONCURRENT_STREAMS = 1.")
    var noWarmup = false

    @Option(
        name: .customLong("manage-port"),
        help: "Serve APNs' channel management API for broadcast push on this port too (0: ephemeral).")
    var managePort: Int?

    func validate() throws {
        for entry in self.jwtKeys where Self.splitKey(entry) == nil {
            throw ValidationError("--jwt-key must be KEYID=PATH, got \"\(entry)\"")
        }
        guard self.maxStreams > 0 else { throw ValidationError("--max-streams must be positive") }
    }

    private static func splitKey(_ entry: String) -> (String, String)? {
        guard let equals = entry.firstIndex(of: "=") else { return nil }
        let keyID = String(entry[..<equals])
        let path = String(entry[entry.index(after: equals)...])
        return keyID.isEmpty || path.isEmpty ? nil : (keyID, path)
    }

    func run() async throws {
        MockProcess.bootstrapLogging(level: listener.logLevel)
        let logger = Logger(label: "apns-mock")

        var keys: [String: String] = [:]
        for entry in self.jwtKeys {
            if let (keyID, path) = Self.splitKey(entry) { keys[keyID] = path }
        }
        if self.jwtKeys.isEmpty { keys["DEVKEY1234"] = "certs/dev/AuthKey_DEVKEY1234.pub.pem" }

        var configuration = APNsMockConfiguration(
            host: listener.host,
            port: self.port,
            tlsCertificatePath: listener.cert,
            tlsKeyPath: listener.key,
            clientCAPath: self.clientCA,
            requireClientCertificate: self.requireClientCertificate,
            mode: self.mode,
            jwtKeys: keys,
            teamID: self.teamID,
            recordFile: self.record,
            maxConcurrentStreams: self.maxStreams,
            tokenAuthWarmup: self.noWarmup ? false : nil,
            adminPort: listener.adminPort,
            eventLoopThreads: listener.threads
        )
        configuration.environment = self.environment
        configuration.managementPort = self.managePort
        let server = APNsMockServer(configuration: configuration, logger: logger)
        try await MockProcess.serve(logger: logger) {
            try await server.start()
            var line =
                "apns-mock listening on https://\(listener.host):\(server.port) (mode \(self.mode.rawValue), \(self.environment.rawValue))"
            if let managementPort = server.managementPort { line += ", manage on https://\(listener.host):\(managementPort)" }
            if let adminPort = server.adminPort { line += ", admin on http://127.0.0.1:\(adminPort)" }
            return line
        } shutdown: {
            try await server.shutdown()
        }
    }
}

extension APNsMockConfiguration.Mode: ExpressibleByArgument {}
extension APNsMockConfiguration.Environment: ExpressibleByArgument {}
