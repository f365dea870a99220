import Foundation
import MockSupport

/// Everything an `FCMMockServer` needs, fixed before `start()`: the settings every mock has
/// (`settings`, read as the configuration's own: `configuration.port`) and the service account.
public struct FCMMockConfiguration: MockServerConfiguration {
    public var settings: MockServerSettings
    /// The service account whose assertions the token endpoint accepts (its public key, email,
    /// key id, project and `token_uri`); messages go to its `project_id`.
    public var serviceAccountPath: String

    /// `accessTokenLifetimeSeconds`: Google's is 3,599 s. `maxConcurrentStreams`: Google's front
    /// ends say 100.
    public init(
        host: String = "127.0.0.1", port: Int = 0, tlsCertificatePath: String, tlsKeyPath: String, serviceAccountPath: String,
        recordFile: String? = nil, recordInMemory: Bool = true, accessTokenLifetimeSeconds: Int = 3599,
        maxConcurrentStreams: Int = 100, adminPort: Int? = nil, eventLoopThreads: Int = 1,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        settings = MockServerSettings(
            host: host, port: port, tlsCertificatePath: tlsCertificatePath, tlsKeyPath: tlsKeyPath, recordFile: recordFile,
            recordInMemory: recordInMemory, accessTokenLifetimeSeconds: accessTokenLifetimeSeconds,
            maxConcurrentStreams: maxConcurrentStreams, adminPort: adminPort, eventLoopThreads: eventLoopThreads, now: now)
        self.serviceAccountPath = serviceAccountPath
    }
}
