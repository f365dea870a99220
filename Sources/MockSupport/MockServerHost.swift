import NIOCore
import NIOSSL

/// Serves a request-level mock (fcm-mock, hms-mock): its TLS listener, HTTP/2 and, when ALPN
/// offers it, HTTP/1.1, each request handed to the mock's `MockResponder`; and its admin listener.
/// It starts once and stops once; every connection is registered in the mock's shared state, so
/// shutdown closes it. (apns-mock serves HTTP/2 frame by frame, and binds its own.)
package final class MockServerHost<State: MockState>: Sendable {
    private let shared: SharedMockState<State>
    private let lifecycle = ServerLifecycle<MockListeners>()

    package init(shared: SharedMockState<State>) {
        self.shared = shared
    }

    /// The bound TLS port once started (0 before).
    package var port: Int { lifecycle.running?.port ?? 0 }

    package var adminPort: Int? { lifecycle.running?.adminPort }

    /// Loads the TLS material and binds the listeners; ALPN offers `applicationProtocols`, in
    /// order. Throws the mock's `alreadyStarted` for a second start, `shutDown` when a shutdown
    /// came first, `invalidTLSMaterial` naming the certificate whichever file failed.
    package func start(
        applicationProtocols: [String], admin: AdminRoutes, responder: some MockResponder
    ) async throws -> MockListeners {
        try await lifecycle.start(alreadyStarted: State.Failure.alreadyStarted, stopped: State.Failure.shutDown) {
            try await bind(applicationProtocols: applicationProtocols, admin: admin, responder: responder)
        } release: { running in
            try? await running.close(connections: [])
        }
    }

    private func bind(
        applicationProtocols: [String], admin: AdminRoutes, responder: some MockResponder
    ) async throws -> MockListeners {
        let settings = shared.settings
        let tls: NIOSSLContext
        do {
            tls = try MockTLS.serverContext(
                certificatePath: settings.tlsCertificatePath, keyPath: settings.tlsKeyPath,
                applicationProtocols: applicationProtocols)
        } catch {
            throw State.Failure.invalidTLSMaterial(path: settings.tlsCertificatePath, detail: error.detail)
        }
        let shared = shared
        let http1 = applicationProtocols.contains("http/1.1")
        return try await MockListeners.bind(settings, admin: admin) { channel in
            let id = shared.connectionAccepted(channel)
            channel.closeFuture.whenComplete { _ in shared.connectionClosed(id: id) }
            return MockHTTPPipeline.configure(
                channel, tls: tls, maxConcurrentStreams: settings.maxConcurrentStreams, http1: http1
            ) { version in
                MockRequestHandler(responder: responder, connectionID: id, httpVersion: version)
            }
        }
    }

    /// Stops listening, closes every connection, fails pending waits, stops the threads and closes
    /// the record file.
    package func shutdown() async throws {
        let running = lifecycle.stop()
        let connections = shared.shutDown()
        try await running?.close(connections: connections, recordFile: shared.recordFile)
    }
}
