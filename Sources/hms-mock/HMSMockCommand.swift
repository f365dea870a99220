import ArgumentParser
import Foundation
import HMSMock
import Logging
import MockSupport

/// `hms-mock`: runs `HMSMockServer` until SIGINT or SIGTERM.
@main
struct HMSMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hms-mock",
        abstract:
            "A mock HMS Push Kit API and OAuth token endpoint (HTTP/2 or HTTP/1.1 over TLS, as ALPN chooses) for tests and demos."
    )

    @OptionGroup var listener: MockListenerOptions

    @Option(help: "TLS port for messages:send and /oauth2/v3/token (0 = ephemeral).")
    var port = 2199

    @Option(name: .customLong("app-id"), help: "The app (OAuth client id, digits) tokens are issued for and messages go to.")
    var appID = "100000001"

    @Option(name: .customLong("client-secret"), help: "The client secret /oauth2/v3/token takes with --app-id.")
    var clientSecret = "dev-hms-client-secret"

    @Flag(name: .customLong("http1-only"), help: "Offer only http/1.1 in ALPN (no HTTP/2).")
    var http1Only = false

    @Option(help: "Append one JSON line per accepted message (one per device token) to this file.")
    var record: String?

    @Option(name: .customLong("token-lifetime"), help: "How long an issued access token lives: seconds, as 3600 or 3600s.")
    var tokenLifetime = "3600s"

    @Option(name: .customLong("max-streams"), help: "SETTINGS_MAX_CONCURRENT_STREAMS per HTTP/2 connection.")
    var maxStreams = 100

    func validate() throws {
        guard !appID.isEmpty, appID.utf8.count <= 64, appID.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw ValidationError("--app-id must be 1 to 64 digits, as Huawei's client ids are")
        }
        guard !clientSecret.isEmpty else { throw ValidationError("--client-secret must not be empty") }
        guard Self.seconds(tokenLifetime) != nil else {
            throw ValidationError("--token-lifetime must be a positive number of seconds, as 3600 or 3600s")
        }
        guard maxStreams > 0 else { throw ValidationError("--max-streams must be positive") }
    }

    /// `3600` or `3600s` → 3600; nil unless positive.
    static func seconds(_ text: String) -> Int? {
        let digits = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let value = Int(digits), value > 0 else { return nil }
        return value
    }

    func run() async throws {
        MockProcess.bootstrapLogging(level: listener.logLevel)
        let logger = Logger(label: "hms-mock")
        let configuration = HMSMockConfiguration(
            host: listener.host, port: port, tlsCertificatePath: listener.cert, tlsKeyPath: listener.key, appID: appID,
            clientSecret: clientSecret, http1Only: http1Only, recordFile: record, recordInMemory: listener.adminPort != nil,
            accessTokenLifetimeSeconds: Self.seconds(tokenLifetime) ?? 3600, maxConcurrentStreams: maxStreams,
            adminPort: listener.adminPort, eventLoopThreads: listener.threads)
        let server = try HMSMockServer(configuration: configuration, logger: logger)
        try await MockProcess.serve(logger: logger) {
            try await server.start()
            var line = "hms-mock listening on https://\(listener.host):\(server.port) (app \(appID), alpn "
            line += server.applicationProtocols.joined(separator: ",") + ")"
            if let adminPort = server.adminPort { line += ", admin on http://127.0.0.1:\(adminPort)" }
            return line
        } shutdown: {
            try await server.shutdown()
        }
    }
}
