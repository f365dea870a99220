import Foundation
import MockSupport

/// Everything an `HMSMockServer` needs, fixed before `start()`: the settings every mock has
/// (`settings`, read as the configuration's own: `configuration.port`) and the app's credentials.
public struct HMSMockConfiguration: MockServerConfiguration {
    public var settings: MockServerSettings
    /// The app (OAuth client id) the token endpoint issues tokens for and messages go to.
    public var appID: String
    /// The client secret the token endpoint takes with `appID`.
    public var clientSecret: String
    /// Offer only `http/1.1` in ALPN (a client asking for h2 alone gets no ALPN and HTTP/1.1).
    /// Otherwise `h2` and `http/1.1`, h2 preferred.
    public var http1Only: Bool

    /// `accessTokenLifetimeSeconds`: Huawei's is 3,600 s.
    public init(
        host: String = "127.0.0.1", port: Int = 0, tlsCertificatePath: String, tlsKeyPath: String, appID: String,
        clientSecret: String, http1Only: Bool = false, recordFile: String? = nil, recordInMemory: Bool = true,
        accessTokenLifetimeSeconds: Int = 3600, maxConcurrentStreams: Int = 100, adminPort: Int? = nil, eventLoopThreads: Int = 1,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        settings = MockServerSettings(
            host: host, port: port, tlsCertificatePath: tlsCertificatePath, tlsKeyPath: tlsKeyPath, recordFile: recordFile,
            recordInMemory: recordInMemory, accessTokenLifetimeSeconds: accessTokenLifetimeSeconds,
            maxConcurrentStreams: maxConcurrentStreams, adminPort: adminPort, eventLoopThreads: eventLoopThreads, now: now)
        self.appID = appID
        self.clientSecret = clientSecret
        self.http1Only = http1Only
    }
}
