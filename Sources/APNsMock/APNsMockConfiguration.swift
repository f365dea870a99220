import Foundation
import MockSupport

/// Everything an ``APNsMockServer`` needs, fixed before ``APNsMockServer/start()``.
///
/// Built once and handed to the server; the server never mutates it.
public struct APNsMockConfiguration: MockListenerConfiguration {
    /// How much of Apple's behaviour the mock reproduces.
    public enum Mode: String, Sendable, Codable, CaseIterable {
        /// Checks requests the way APNs does (path, headers, payload, provider tokens) and answers
        /// with Apple's status codes and `{"reason": …}` bodies.
        case validating
        /// Answers every well-framed request with 200 at once; for load tests.
        case sink
    }

    /// Which of Apple's two environments the mock plays.
    public enum Environment: String, Sendable, Codable, CaseIterable {
        /// `api.push.apple.com`.
        case production
        /// `api.sandbox.push.apple.com`: a 200 also carries `apns-unique-id`, which finds the push
        /// in Apple's Push Notifications Console.
        case development
    }

    /// Production (the default) or development.
    public var environment: Environment = .production
    /// Interface to listen on. Default `127.0.0.1`.
    public var host: String
    /// TLS port; 0 picks an ephemeral port (read it from ``APNsMockServer/port`` after start).
    public var port: Int
    /// PEM certificate chain the server presents.
    public var tlsCertificatePath: String
    /// PEM private key of ``tlsCertificatePath``.
    public var tlsKeyPath: String
    /// When set, the server asks for client certificates and verifies them against this PEM CA.
    ///
    /// A connection that presents a certificate signed by it is *certificate-authenticated*: its
    /// requests need no `authorization` header. A certificate not signed by it fails the TLS
    /// handshake. A connection without a certificate falls back to token authentication (so it
    /// gets 403 `MissingProviderToken` without a JWT), unless ``requireClientCertificate`` is set.
    public var clientCAPath: String?
    /// With ``clientCAPath``: refuse, at the TLS handshake, connections that present no certificate.
    public var requireClientCertificate: Bool
    /// Validating or sink.
    public var mode: Mode
    /// Provider-token verification keys: key ID → path of a PEM `PUBLIC KEY` (P-256).
    public var jwtKeys: [String: String]
    /// Provider-token verification keys given directly: key ID → PEM `PUBLIC KEY` text.
    public var jwtPublicKeysPEM: [String: String]
    /// When set, a JWT's `iss` claim must equal it.
    public var teamID: String?
    /// Keep accepted notifications in memory (``APNsMockServer/notifications``).
    /// Defaults to `true` in validating mode and `false` in sink mode.
    public var recordInMemory: Bool
    /// Append one JSON line per accepted notification to this file.
    public var recordFile: String?
    /// SETTINGS_MAX_CONCURRENT_STREAMS advertised once a connection is usable. Default 1000.
    public var maxConcurrentStreams: Int
    /// Advertise SETTINGS_MAX_CONCURRENT_STREAMS = 1 on a connection without a client certificate
    /// until a request on it carries a valid provider token, then raise it to
    /// ``maxConcurrentStreams`` (Apple does this). Defaults to `true` in validating mode.
    public var tokenAuthWarmup: Bool
    /// Plaintext HTTP/1.1 admin listener on 127.0.0.1 (see ``APNsMockAdminAPI``); `nil` = none,
    /// 0 = ephemeral (read it from ``APNsMockServer/adminPort`` after start).
    public var adminPort: Int?
    /// When set, the channel management API for broadcast push listens here (0: an ephemeral
    /// port), with the same TLS material: Apple serves it on a host and port of its own.
    public var managementPort: Int?
    /// Event-loop threads serving connections. Default 1.
    public var eventLoopThreads: Int
    /// Clock for provider-token ages and `receivedAt`; injectable so tests can move time.
    public var now: @Sendable () -> Date

    /// Creates a configuration; `recordInMemory` and `tokenAuthWarmup` default by `mode` when `nil`.
    public init(
        host: String = "127.0.0.1",
        port: Int = 0,
        tlsCertificatePath: String,
        tlsKeyPath: String,
        clientCAPath: String? = nil,
        requireClientCertificate: Bool = false,
        mode: Mode = .validating,
        jwtKeys: [String: String] = [:],
        jwtPublicKeysPEM: [String: String] = [:],
        teamID: String? = nil,
        recordInMemory: Bool? = nil,
        recordFile: String? = nil,
        maxConcurrentStreams: Int = 1000,
        tokenAuthWarmup: Bool? = nil,
        adminPort: Int? = nil,
        eventLoopThreads: Int = 1,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.host = host
        self.port = port
        self.tlsCertificatePath = tlsCertificatePath
        self.tlsKeyPath = tlsKeyPath
        self.clientCAPath = clientCAPath
        self.requireClientCertificate = requireClientCertificate
        self.mode = mode
        self.jwtKeys = jwtKeys
        self.jwtPublicKeysPEM = jwtPublicKeysPEM
        self.teamID = teamID
        self.recordInMemory = recordInMemory ?? (mode == .validating)
        self.recordFile = recordFile
        self.maxConcurrentStreams = maxConcurrentStreams
        self.tokenAuthWarmup = tokenAuthWarmup ?? (mode == .validating)
        self.adminPort = adminPort
        self.eventLoopThreads = eventLoopThreads
        self.now = now
    }
}
