import Foundation

/// What fcm-mock and hms-mock are configured with alike: where they listen, their TLS material,
/// the record, the token endpoint's token lifetime, the HTTP/2 stream limit and their clock. Each
/// mock's configuration holds these (`MockServerConfiguration`) with its own defaults.
public struct MockServerSettings: MockListenerConfiguration {
    public var host: String
    /// TLS port for `messages:send` and the token endpoint (0 = ephemeral).
    public var port: Int
    public var tlsCertificatePath: String
    public var tlsKeyPath: String
    /// Append one JSON line per accepted message to this file.
    public var recordFile: String?
    /// Keep accepted messages in memory (`messages`, `waitForMessages`).
    public var recordInMemory: Bool
    /// How long an access token the token endpoint issues lives.
    public var accessTokenLifetimeSeconds: Int
    /// SETTINGS_MAX_CONCURRENT_STREAMS per HTTP/2 connection.
    public var maxConcurrentStreams: Int
    /// Plaintext HTTP/1.1 admin listener on 127.0.0.1 (0 = ephemeral), if any.
    public var adminPort: Int?
    public var eventLoopThreads: Int
    public var now: @Sendable () -> Date

    package init(
        host: String, port: Int, tlsCertificatePath: String, tlsKeyPath: String, recordFile: String?, recordInMemory: Bool,
        accessTokenLifetimeSeconds: Int, maxConcurrentStreams: Int, adminPort: Int?, eventLoopThreads: Int,
        now: @escaping @Sendable () -> Date
    ) {
        self.host = host
        self.port = port
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.recordFile = recordFile
        self.recordInMemory = recordInMemory
        self.accessTokenLifetimeSeconds = accessTokenLifetimeSeconds
        self.maxConcurrentStreams = maxConcurrentStreams
        self.adminPort = adminPort
        self.eventLoopThreads = eventLoopThreads
        self.now = now
    }
}
