import ArgumentParser
import Foundation
import Logging
import MockSupport
import WebPushMock

/// `webpush-mock`: runs `WebPushMockServer` until SIGINT or SIGTERM.
@main
struct WebPushMockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webpush-mock",
        abstract:
            "A mock Web Push service (RFC 8030, with RFC 8291 decryption and RFC 8292 VAPID checks) over TLS, HTTP/2 or HTTP/1.1, for tests and demos."
    )

    @OptionGroup var listener: MockListenerOptions

    @Option(help: "TLS port for pushes (0 = ephemeral).")
    var port = 2299

    @Flag(name: .customLong("http1-only"), help: "Offer only http/1.1 in ALPN (no HTTP/2).")
    var http1Only = false

    @Option(help: "Append one JSON line per accepted push to this file.")
    var record: String?

    func run() async throws {
        MockProcess.bootstrapLogging(level: listener.logLevel)
        let logger = Logger(label: "webpush-mock")
        let configuration = WebPushMockConfiguration(
            host: listener.host, port: port, tlsCertificatePath: listener.cert, tlsKeyPath: listener.key, http1Only: http1Only,
            recordFile: record, recordInMemory: listener.adminPort != nil, adminPort: listener.adminPort,
            eventLoopThreads: listener.threads)
        let server = try WebPushMockServer(configuration: configuration, logger: logger)
        try await MockProcess.serve(logger: logger) {
            try await server.start()
            var line = "webpush-mock listening on \(server.origin) (alpn \(server.applicationProtocols.joined(separator: ",")))"
            if let adminPort = server.adminPort { line += ", admin on http://127.0.0.1:\(adminPort)" }
            return line
        } shutdown: {
            try await server.shutdown()
        }
    }
}
