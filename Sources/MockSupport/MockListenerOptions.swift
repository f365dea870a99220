import ArgumentParser
import Logging

/// The options both mock executables take alike: where to listen, the TLS material, the admin
/// listener, threads and logging. Each adds its own port (their defaults differ) and the rest.
package struct MockListenerOptions: ParsableArguments {
    @Option(help: "Interface to listen on.")
    package var host = "127.0.0.1"

    @Option(help: "PEM certificate chain the server presents.")
    package var cert = "certs/dev/server.pem"

    @Option(help: "PEM private key of --cert.")
    package var key = "certs/dev/server.key"

    @Option(name: .customLong("admin-port"), help: "Plaintext HTTP/1.1 admin listener on 127.0.0.1 (0 = ephemeral).")
    package var adminPort: Int?

    @Option(help: "Event-loop threads.")
    package var threads = 1

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    package var logLevel: Logger.Level = .info

    package init() {}

    package func validate() throws {
        guard threads > 0 else { throw ValidationError("--threads must be positive") }
    }
}
