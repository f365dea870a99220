/// Where and how a mock listens: the fields every mock's configuration has alike (each keeps its
/// own defaults and documentation), read by `MockListeners.bind`.
package protocol MockListenerConfiguration: Sendable {
    var host: String { get }
    /// TLS port (0 = ephemeral).
    var port: Int { get }
    var tlsCertificatePath: String { get }
    var tlsKeyPath: String { get }
    /// Plaintext HTTP/1.1 admin listener on 127.0.0.1 (0 = ephemeral), if any.
    var adminPort: Int? { get }
    var eventLoopThreads: Int { get }
}
