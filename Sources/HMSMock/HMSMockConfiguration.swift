import Foundation
import MockSupport

/// Everything an `HMSMockServer` needs, fixed before `start()`.
public struct HMSMockConfiguration: MockListenerConfiguration {
    public var host: String
    /// TLS port for `messages:send` and the token endpoint (0 = ephemeral).
    public var port: Int
    public var tlsCertificatePath: String
    public var tlsKeyPath: String
    /// The app (OAuth client id) the token endpoint issues tokens for and messages go to.
    public var appID: String
    /// The client secret the token endpoint takes with `appID`.
    public var clientSecret: String
    /// Offer only `http/1.1` in ALPN (a client asking for h2 alone gets no ALPN and HTTP/1.1).
    /// Otherwise `h2` and `http/1.1`, h2 preferred.
    public var http1Only: Bool
    /// Append one JSON line per accepted message to this file.
    public var recordFile: String?
    /// Keep accepted messages in memory (`messages`, `waitForMessages`).
    public var recordInMemory: Bool
    /// How long an access token the token endpoint issues lives (Huawei: 3,600 s).
    public var accessTokenLifetimeSeconds: Int
    /// SETTINGS_MAX_CONCURRENT_STREAMS per HTTP/2 connection.
    public var maxConcurrentStreams: Int
    /// Plaintext HTTP/1.1 admin listener on 127.0.0.1 (0 = ephemeral), if any.
    public var adminPort: Int?
    public var eventLoopThreads: Int
    public var now: @Sendable () -> Date

    public init(
        host: String = "127.0.0.1", port: Int = 0, tlsCertificatePath: String, tlsKeyPath: String, appID: String,
        clientSecret: String, http1Only: Bool = false, recordFile: String? = nil, recordInMemory: Bool = true,
        accessTokenLifetimeSeconds: Int = 3600, maxConcurrentStreams: Int = 100, adminPort: Int? = nil, eventLoopThreads: Int = 1,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.host = host
        self.port = port
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.appID = appID
        self.clientSecret = clientSecret
        self.http1Only = http1Only
        self.recordFile = recordFile
        self.recordInMemory = recordInMemory
        self.accessTokenLifetimeSeconds = accessTokenLifetimeSeconds
        self.maxConcurrentStreams = maxConcurrentStreams
        self.adminPort = adminPort
        self.eventLoopThreads = eventLoopThreads
        self.now = now
    }
}
