import Foundation
import MockSupport

/// Everything a `WebPushMockServer` needs, fixed before `start()`: the settings every mock has
/// (`settings`, read as the configuration's own: `configuration.port`).
public struct WebPushMockConfiguration: MockServerConfiguration {
    public var settings: MockServerSettings
    /// Offer only `http/1.1` in ALPN; otherwise `h2` and `http/1.1`, h2 preferred (push services
    /// differ: Apple's and Google's speak HTTP/2, others HTTP/1.1 only).
    public var http1Only: Bool

    public init(
        host: String = "127.0.0.1", port: Int = 0, tlsCertificatePath: String, tlsKeyPath: String, http1Only: Bool = false,
        recordFile: String? = nil, recordInMemory: Bool = true, maxConcurrentStreams: Int = 100, adminPort: Int? = nil,
        eventLoopThreads: Int = 1, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        settings = MockServerSettings(
            host: host, port: port, tlsCertificatePath: tlsCertificatePath, tlsKeyPath: tlsKeyPath, recordFile: recordFile,
            recordInMemory: recordInMemory, accessTokenLifetimeSeconds: 3600, maxConcurrentStreams: maxConcurrentStreams,
            adminPort: adminPort, eventLoopThreads: eventLoopThreads, now: now)
        self.http1Only = http1Only
    }
}
