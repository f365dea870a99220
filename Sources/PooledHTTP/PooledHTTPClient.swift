import AsyncHTTPClient
import ConnectionLiveness
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// An AsyncHTTPClient for a push provider's API: HTTP/2 when the server offers it over ALPN (one
/// connection per host, many streams), else a pool of HTTP/1.1 connections; no redirects; a
/// refused connection fails the request at once (the dispatcher retries with its backoff, and a
/// test push says "cannot connect" instead of waiting out its deadline).
///
/// Every HTTP/2 connection carries a `LivenessHandler`, so one that stops answering is closed and
/// redialled as the project's own transport does it. An HTTP/1.1 connection needs none: a request
/// that passes its deadline closes its connection.
public final class PooledHTTPClient: Sendable {
    public struct Settings: Sendable {
        public var tls: TLSConfiguration
        public var connectTimeout: Duration
        /// HTTP/1.1 connections per host (HTTP/2 uses one).
        public var connectionsPerHost: Int
        public var liveness: LivenessSettings
        public var logger: Logger

        public init(
            tls: TLSConfiguration = .makeClientConfiguration(), connectTimeout: Duration = .seconds(10), connectionsPerHost: Int = 4,
            liveness: LivenessSettings = LivenessSettings(), logger: Logger
        ) {
            self.tls = tls
            self.connectTimeout = connectTimeout
            self.connectionsPerHost = connectionsPerHost
            self.liveness = liveness
            self.logger = logger
        }
    }

    public let http: HTTPClient
    private let replaced = ReplacementCount()

    /// Shared by the connections' handlers, which count into it from their event loops.
    private final class ReplacementCount: Sendable {
        let value = Atomic<Int>(0)
    }

    /// How long a closing connection waits for the server's TLS close_notify: one closed for
    /// silence would otherwise hold its requests for NIOSSL's default 5 s before they fail.
    static let tlsShutdownTimeout = TimeAmount.milliseconds(250)

    public init(_ settings: Settings) {
        var tls = settings.tls
        tls.shutdownTimeout = min(tls.shutdownTimeout, Self.tlsShutdownTimeout)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(settings.connectTimeout.nanoseconds)))
        configuration.httpVersion = .automatic
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, settings.connectionsPerHost))
        configuration.connectionPool.retryConnectionEstablishment = false
        let replaced = replaced
        let (liveness, logger) = (settings.liveness, settings.logger)
        configuration.http2ConnectionDebugInitializer = { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = LivenessHandler(settings: liveness, logger: logger) { _ in replaced.value.add(1, ordering: .relaxed) }
                try channel.pipeline.syncOperations.addHandler(handler, position: .last)
            }
        }
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration, backgroundActivityLogger: logger)
    }

    /// HTTP/2 connections closed because they stopped answering (`LivenessHandler`).
    public var connectionsReplaced: Int { replaced.value.load(ordering: .relaxed) }

    public func shutdown() async {
        try? await http.shutdown()
    }
}

extension Duration {
    /// For NIO's `TimeAmount`, which counts nanoseconds.
    package var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
