import Foundation
import MockSupport

/// Everything an `FCMMockServer` needs, fixed before `start()`.
public struct FCMMockConfiguration: MockListenerConfiguration {
    public var host: String
    /// TLS port for `messages:send` and the token endpoint (0 = ephemeral).
    public var port: Int
    public var tlsCertificatePath: String
    public var tlsKeyPath: String
    /// The service account whose assertions the token endpoint accepts (its public key, email,
    /// key id, project and `token_uri`); messages go to its `project_id`.
    public var serviceAccountPath: String
    /// Append one JSON line per accepted message to this file.
    public var recordFile: String?
    /// Keep accepted messages in memory (`messages`, `waitForMessages`).
    public var recordInMemory: Bool
    /// How long an access token the token endpoint issues lives (Google: 3,599 s).
    public var accessTokenLifetimeSeconds: Int
    /// SETTINGS_MAX_CONCURRENT_STREAMS per connection (Google's front ends say 100).
    public var maxConcurrentStreams: Int
    /// Plaintext HTTP/1.1 admin listener on 127.0.0.1 (0 = ephemeral), if any.
    public var adminPort: Int?
    public var eventLoopThreads: Int
    public var now: @Sendable () -> Date

    public init(
        host: String = "127.0.0.1", port: Int = 0, tlsCertificatePath: String, tlsKeyPath: String, serviceAccountPath: String,
        recordFile: String? = nil, recordInMemory: Bool = true, accessTokenLifetimeSeconds: Int = 3599,
        maxConcurrentStreams: Int = 100, adminPort: Int? = nil, eventLoopThreads: Int = 1,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.host = host
        self.port = port
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.serviceAccountPath = serviceAccountPath
        self.recordFile = recordFile
        self.recordInMemory = recordInMemory
        self.accessTokenLifetimeSeconds = accessTokenLifetimeSeconds
        self.maxConcurrentStreams = maxConcurrentStreams
        self.adminPort = adminPort
        self.eventLoopThreads = eventLoopThreads
        self.now = now
    }
}
