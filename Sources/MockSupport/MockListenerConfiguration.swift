/// Where and how a mock listens, read by `MockListeners.bind`: apns-mock's configuration, and the
/// settings fcm-mock's and hms-mock's share (`MockServerSettings`).
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
